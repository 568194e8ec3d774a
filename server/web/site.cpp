#include "server/web/site.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <system_error>

#include "server/log/log.h"

namespace xq::server::web {
namespace {

namespace fs = std::filesystem;

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// esbuild's default hash: 8 characters of upper-case base32 after the last '-'.
bool hashed(std::string_view name) {
    const auto dot = name.find('.');
    const auto stem = name.substr(0, dot);
    const auto dash = stem.rfind('-');
    if (dash == std::string_view::npos) return false;
    const auto hash = stem.substr(dash + 1);
    return hash.size() >= 8 &&
           std::all_of(hash.begin(), hash.end(), [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); });
}

// The file's bytes, if `path` is a regular file no larger than the cap.
std::optional<std::string> read_file(const fs::path& path) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::is_regular_file(status)) return std::nullopt;
    const auto size = fs::file_size(path, ec);
    if (ec) return std::nullopt;
    if (size > Site::kMaxFileBytes) {
        log(LogLevel::Warn, "web: ", path.string(), " is ", size, " bytes; files over ", Site::kMaxFileBytes,
            " are not served");
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) return std::nullopt;
    return body;
}

}  // namespace

Site::Site(fs::path root) : root_(std::move(root)) {}

std::optional<StaticFile> Site::index() const {
    auto body = read_file(root_ / "index.html");
    if (!body) {
        if (!warned_)
            log(LogLevel::Warn, "web: no watch page at ", (root_ / "index.html").string(),
                ": build it (./xq build) or point --web-root at one");
        warned_ = true;
        return std::nullopt;
    }
    return StaticFile{std::move(*body), content_type("index.html"), false};
}

std::optional<StaticFile> Site::asset(std::string_view encoded_name) const {
    const auto name = asset_name(encoded_name);
    if (!name) return std::nullopt;
    // The name is one plain segment, but assets/ or the file may be a link: the file served must
    // really lie in the assets folder.
    std::error_code ec;
    const fs::path folder = fs::canonical(root_ / "assets", ec);
    if (ec) return std::nullopt;
    const fs::path file = fs::canonical(folder / *name, ec);
    if (ec || file.parent_path() != folder) return std::nullopt;
    auto body = read_file(file);
    if (!body) return std::nullopt;
    return StaticFile{std::move(*body), content_type(*name), hashed(*name)};
}

std::optional<std::string> asset_name(std::string_view encoded) {
    std::string name;
    for (std::size_t i = 0; i < encoded.size(); ++i) {
        char c = encoded[i];
        if (c == '%') {
            if (i + 2 >= encoded.size()) return std::nullopt;  // a cut escape
            const int high = hex_value(encoded[i + 1]), low = hex_value(encoded[i + 2]);
            if (high < 0 || low < 0) return std::nullopt;
            c = static_cast<char>(high * 16 + low);
            i += 2;
        }
        name.push_back(c);
    }
    if (name.empty() || name.size() > 255 || name.front() == '.') return std::nullopt;
    for (const char c : name)
        if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return std::nullopt;
    return name;
}

std::string_view content_type(std::string_view name) {
    const auto dot = name.rfind('.');
    std::string ext(dot == std::string_view::npos ? std::string_view() : name.substr(dot + 1));
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == "html") return "text/html; charset=utf-8";
    if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
    if (ext == "css") return "text/css; charset=utf-8";
    if (ext == "svg") return "image/svg+xml";
    if (ext == "png") return "image/png";
    if (ext == "ico") return "image/x-icon";
    if (ext == "woff2") return "font/woff2";
    if (ext == "woff") return "font/woff";
    if (ext == "json" || ext == "map") return "application/json";
    if (ext == "txt") return "text/plain; charset=utf-8";
    if (ext == "webmanifest") return "application/manifest+json";
    return "application/octet-stream";
}

}  // namespace xq::server::web
