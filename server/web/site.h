#pragma once
// The built watch page on disk (--web-root, default the build's web/dist): index.html for the
// page's paths, and the flat assets/ folder of the bundle. Which file a URL names is decided here
// and nowhere else: only a plain name inside assets/ is ever opened (no '/', no "..", no dot
// file), and a symbolic link that leads outside the folder is not followed (docs/web.md).

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace xq::server::web {

struct StaticFile {
    std::string body;
    std::string_view content_type;
    // A content-hashed name (esbuild's "[name]-[HASH]"): its bytes never change, so a browser may
    // keep it for a year. Everything else is revalidated.
    bool immutable = false;
};

class Site {
public:
    // A file larger than this is not served: the session queues a response whole, and its
    // outbound queue (SessionLimits::max_queue_bytes, 1 MiB) must hold it.
    static constexpr std::size_t kMaxFileBytes = 768 * 1024;

    explicit Site(std::filesystem::path root);

    // The page itself, served for "/" and "/g/<id>"; none when the page was not built (logged).
    std::optional<StaticFile> index() const;
    // "/assets/<name>", the name still percent-encoded as it came in the URL.
    std::optional<StaticFile> asset(std::string_view encoded_name) const;

    const std::filesystem::path& root() const { return root_; }

private:
    std::filesystem::path root_;
    mutable bool warned_ = false;  // "the page is not built" is logged once
};

// The name an encoded URL segment stands for, if it may name an asset at all: percent escapes
// decoded, then refused when empty, over 255 bytes, holding '/', '\\', a control byte (NUL
// included), or starting with '.' (".", "..", dot files).
std::optional<std::string> asset_name(std::string_view encoded);

// The Content-Type of a file by its extension (UTF-8 for text).
std::string_view content_type(std::string_view name);

}  // namespace xq::server::web
