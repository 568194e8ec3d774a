// fuzz_names: account names from the network (Register, Login, Hello). Whatever account_key()
// accepts has a key that is itself a valid name with the same key (case folding is idempotent),
// holds only the allowed repertoire (ASCII lower-case letters, digits, '_', '-', CJK unified
// ideographs), is 3-20 characters, and matches the name byte for byte except for A-Z lowered:
// so two names with one key differ only in ASCII letter case, and no look-alike gets a key.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "server/accounts/names.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace xq::server;
    const std::string_view name(reinterpret_cast<const char*>(data), size);
    const auto key = account_key(name);
    if (!key) {
        XQ_FUZZ_CHECK(!key.error().empty(), "a refused name says why");
        XQ_FUZZ_CHECK(key_if_valid(name).empty(), "a refused name has no key");
        return 0;
    }
    XQ_FUZZ_CHECK(key->size() == name.size(), "the key has the name's bytes");
    std::size_t chars = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto a = static_cast<unsigned char>(name[i]);
        const auto k = static_cast<unsigned char>((*key)[i]);
        if (a < 0x80) {
            ++chars;
            const bool ok = (k >= 'a' && k <= 'z') || (k >= '0' && k <= '9') || k == '_' || k == '-';
            XQ_FUZZ_CHECK(ok, "a key holds only lower-case ASCII letters, digits, '_' and '-' of ASCII");
            XQ_FUZZ_CHECK(k == (a >= 'A' && a <= 'Z' ? a - 'A' + 'a' : a), "only A-Z are lowered");
        } else {
            XQ_FUZZ_CHECK(a == k, "non-ASCII bytes are kept");
            if ((a & 0xC0) != 0x80) {
                ++chars;
                XQ_FUZZ_CHECK((a & 0xF0) == 0xE0, "every non-ASCII character is a 3-byte ideograph");
                const std::uint32_t cp = (a & 0x0Fu) << 12 | (static_cast<unsigned char>(name[i + 1]) & 0x3Fu) << 6 |
                                         (static_cast<unsigned char>(name[i + 2]) & 0x3Fu);
                XQ_FUZZ_CHECK((cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF),
                              "every non-ASCII character is a CJK unified ideograph");
            }
        }
    }
    XQ_FUZZ_CHECK(chars >= kMinNameChars && chars <= kMaxNameChars, "3 to 20 characters");
    const auto again = account_key(*key);
    XQ_FUZZ_CHECK(again && *again == *key, "a key is a name with itself as key");
    return 0;
}
