#pragma once
// A file only its owner may read (a private key, the client's known servers), written whole or
// not at all: into a temporary beside it, mode 0600 from creation, synced, then renamed over.

#include <expected>
#include <filesystem>
#include <string>
#include <string_view>

namespace xq::tls {

// Creates the parent folder (mode 0700) if missing. The error names the step and the path.
std::expected<void, std::string> write_private_file(const std::filesystem::path& path, std::string_view bytes);

}  // namespace xq::tls
