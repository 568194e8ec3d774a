#include "client/records/file_browser.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <system_error>

namespace xq::client {
namespace fs = std::filesystem;

namespace {

bool is_pgn(const fs::path& p) {
    std::string ext = p.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".pgn";
}

}  // namespace

FileBrowser::FileBrowser(FileDialogKind kind, const fs::path& folder) : kind_(kind) {
    std::error_code ec;
    if (!open_folder(folder)) {
        const std::string why = error_;
        open_folder(fs::current_path(ec));
        error_ = why;
    }
}

bool FileBrowser::open_folder(const fs::path& folder) {
    std::error_code ec;
    const fs::path absolute = fs::weakly_canonical(fs::absolute(folder, ec), ec);
    std::vector<FileEntry> folders, files;
    fs::directory_iterator it(absolute, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        error_ = "cannot open " + folder.string() + ": " + ec.message();
        return false;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (name.starts_with(".")) continue;
        std::error_code type_ec;
        if (it->is_directory(type_ec))
            folders.push_back({name, true});
        else if (is_pgn(it->path()) && it->is_regular_file(type_ec))
            files.push_back({name, false});
    }
    const auto by_name = [](const FileEntry& a, const FileEntry& b) { return a.name < b.name; };
    std::sort(folders.begin(), folders.end(), by_name);
    std::sort(files.begin(), files.end(), by_name);
    entries_.clear();
    if (absolute.has_relative_path()) entries_.push_back({"..", true});
    entries_.insert(entries_.end(), folders.begin(), folders.end());
    entries_.insert(entries_.end(), files.begin(), files.end());
    folder_ = absolute;
    error_.clear();
    return true;
}

fs::path FileBrowser::resolve(std::string_view typed) const {
    std::string text(typed);
    if (text == "~" || text.starts_with("~/")) {
        const char* home = std::getenv("HOME");
        if (home) text = std::string(home) + text.substr(1);
    }
    const fs::path p(text);
    return p.is_absolute() ? p : folder_ / p;
}

std::optional<fs::path> FileBrowser::choose(std::string_view typed) {
    std::string trimmed(typed);
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) trimmed.pop_back();
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) trimmed.erase(0, 1);
    if (trimmed.empty()) {
        error_ = kind_ == FileDialogKind::Open ? "pick a file, or type its name" : "type a name for the file";
        return std::nullopt;
    }
    fs::path path = resolve(trimmed);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        open_folder(path);
        return std::nullopt;
    }
    if (kind_ == FileDialogKind::Open) {
        if (!fs::exists(path, ec)) {
            error_ = "there is no file " + path.string();
            return std::nullopt;
        }
        error_.clear();
        return path;
    }
    if (!path.has_extension()) path += ".pgn";
    const fs::path parent = path.parent_path();
    if (!fs::is_directory(parent, ec)) {
        error_ = "there is no folder " + parent.string();
        return std::nullopt;
    }
    if (path.filename().string().starts_with(".")) {
        error_ = "a file name may not start with a dot";
        return std::nullopt;
    }
    error_.clear();
    return path;
}

std::string unused_file_name(const fs::path& folder, const std::string& name) {
    std::error_code ec;
    if (!fs::exists(folder / fs::path(name), ec)) return name;
    const fs::path given = fs::path(name);
    const std::string stem = given.stem().string(), ext = given.extension().string();
    for (int n = 2;; ++n) {
        std::string candidate = stem + "-" + std::to_string(n) + ext;
        if (!fs::exists(folder / fs::path(candidate), ec)) return candidate;
    }
}

}  // namespace xq::client
