#pragma once
// What the client's file dialog shows and decides, without drawing it: the folders and .pgn files
// of one folder, and what a typed or picked path means for Open (an existing file) or Save (a
// new or existing file in an existing folder). SFML has no file dialog; the view draws this.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xq::client {

enum class FileDialogKind { Open, Save };

struct FileEntry {
    std::string name;  // UTF-8; ".." for the parent folder
    bool folder = false;
    friend bool operator==(const FileEntry&, const FileEntry&) = default;
};

// `name` in `folder`, or, when a file of that name is there already, the first of "stem-2.ext",
// "stem-3.ext", ... that is not: what Save offers, so that saving twice never overwrites unasked.
std::string unused_file_name(const std::filesystem::path& folder, const std::string& name);

class FileBrowser {
public:
    // Lists `folder` (or the current directory, when it cannot be listed).
    FileBrowser(FileDialogKind kind, const std::filesystem::path& folder);

    FileDialogKind kind() const { return kind_; }
    const std::filesystem::path& folder() const { return folder_; }
    // ".." first (but at the root), then folders, then .pgn files, each sorted by name; hidden
    // entries (a leading dot) are left out.
    const std::vector<FileEntry>& entries() const { return entries_; }
    // Why the last step failed ("cannot open /root: permission denied"); "" after a good one.
    const std::string& error() const { return error_; }

    // Lists another folder; on failure the listing stays and error() says why.
    bool open_folder(const std::filesystem::path& folder);

    // A path typed in the field or picked from the list, relative to folder() unless absolute (a
    // leading "~" is the home folder). A folder is opened (nullopt). For Open, an existing file is
    // the answer; for Save, a file name in an existing folder, ".pgn" added when it has no
    // extension. Anything else is nullopt with error() set.
    std::optional<std::filesystem::path> choose(std::string_view typed);

private:
    std::filesystem::path resolve(std::string_view typed) const;

    FileDialogKind kind_;
    std::filesystem::path folder_;
    std::vector<FileEntry> entries_;
    std::string error_;
};

}  // namespace xq::client
