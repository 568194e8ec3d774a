// fuzz_dispatch: requests from hostile clients. The input is a script of records for four fake
// participants, played against the server's own dispatcher by DispatchDriver (no sockets: fake
// peers, fake time, an in-memory store). Each record is one byte, then for requests a 2-byte
// big-endian length and that many bytes of payload, handed to the dispatcher as one frame's
// payload (it decodes it exactly as for a client over TCP):
//   bits 0-1  participant
//   bits 2-4  time that passes first: 0, 50 ms, 1 s, 10 s, 70 s, 10 min, 0, 0
//   bits 5-7  0-5 a request; 6 the participant reconnects; 7 the server sweeps ended rooms

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/dispatch_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace xq;
    using std::chrono::milliseconds;
    constexpr std::array<milliseconds, 8> kSteps{milliseconds(0),     milliseconds(50),     milliseconds(1000),
                                                 milliseconds(10000), milliseconds(70000),  milliseconds(600000),
                                                 milliseconds(0),     milliseconds(0)};
    // libFuzzer's first call, an empty input whose coverage it does not record, would open the
    // process's store (fuzz/dispatch_driver.cpp) out of its sight; an empty script does nothing.
    if (size == 0) return 0;
    fuzz::DispatchDriver driver;
    std::size_t i = 0;
    while (i < size) {
        const std::uint8_t op = data[i++];
        const int slot = op & 3;
        driver.advance(kSteps[(op >> 2) & 7]);
        const int kind = op >> 5;
        if (kind == 6) {
            driver.reconnect(slot);
            continue;
        }
        if (kind == 7) {
            driver.sweep();
            continue;
        }
        if (size - i < 2) break;
        const std::size_t length = std::min<std::size_t>(static_cast<std::size_t>(data[i] << 8 | data[i + 1]), size - i - 2);
        const std::string_view payload(reinterpret_cast<const char*>(data) + i + 2, length);
        i += 2 + length;
        // A frame that does not decode gets an error and, at worst, a closed connection.
        driver.request(slot, payload);
    }
    return 0;
}
