#include "resources.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <SFML/System/Err.hpp>

namespace xq::client {

namespace {

constexpr unsigned kRate = 44100;

// A tone of `hz` for `ms` with a fast attack and an exponential decay, plus a little noise for a
// wooden click at the start: close to a piece set down on a board.
void add_tone(std::vector<float>& out, double start_ms, double hz, double ms, double gain, double click) {
    const auto first = static_cast<std::size_t>(start_ms * kRate / 1000);
    const auto count = static_cast<std::size_t>(ms * kRate / 1000);
    if (out.size() < first + count) out.resize(first + count, 0.0f);
    std::uint32_t noise = 12345;
    for (std::size_t i = 0; i < count; ++i) {
        const double t = static_cast<double>(i) / kRate;
        const double decay = std::exp(-t * 1000.0 / (ms / 4));
        noise = noise * 1664525u + 1013904223u;
        const double n = (static_cast<double>(noise >> 8) / (1 << 24) - 0.5) * click * std::exp(-t * 400);
        out[first + i] += static_cast<float>(gain * decay * (std::sin(2 * M_PI * hz * t) + n));
    }
}

sf::SoundBuffer to_buffer(const std::vector<float>& wave) {
    std::vector<sf::Int16> samples(wave.size());
    for (std::size_t i = 0; i < wave.size(); ++i)
        samples[i] = static_cast<sf::Int16>(std::clamp(wave[i], -1.0f, 1.0f) * 30000);
    sf::SoundBuffer buffer;
    buffer.loadFromSamples(samples.data(), samples.size(), 1, kRate);
    return buffer;
}

// SFML reports every failed OpenAL call on sf::err(), so a machine without an audio device got a
// message for each sound played. This buffer takes sf::err()'s messages (each ends with a flush),
// passes others on, says the first audio failure once (when not held) and remembers it, and drops
// the rest.
class AudioErrorFilter : public std::streambuf {
public:
    explicit AudioErrorFilter(std::streambuf* out) : out_(out) {}
    bool failed() const { return failed_; }
    // While held, a failure is noted but said only on release (stderr may be shut meanwhile).
    void hold(bool on) {
        held_ = on;
        announce();
    }

protected:
    int overflow(int c) override {
        if (c != traits_type::eof()) message_ += static_cast<char>(c);
        return traits_type::not_eof(c);
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        message_.append(s, static_cast<std::size_t>(n));
        return n;
    }
    int sync() override {
        if (message_.empty()) return 0;
        const bool audio = message_.find("OpenAL") != std::string::npos ||
                           message_.find("audio device") != std::string::npos ||
                           message_.find("audio context") != std::string::npos ||
                           message_.find("sound buffer") != std::string::npos;
        if (!audio) {
            write(message_);
        } else if (!failed_) {
            failed_ = true;
            first_ = message_.substr(0, message_.find('\n'));
        }
        message_.clear();
        announce();
        return 0;
    }

private:
    void write(const std::string& text) {
        out_->sputn(text.data(), static_cast<std::streamsize>(text.size()));
        out_->pubsync();
    }
    void announce() {
        if (!failed_ || announced_ || held_) return;
        announced_ = true;
        write("xiangqi-client: no sound (" + first_ + "); playing on in silence\n");
    }

    std::streambuf* out_;
    std::string message_;
    std::string first_;
    bool failed_ = false;
    bool announced_ = false;
    bool held_ = false;
};

// Installed once, before the first sound, and never freed: SFML may still write to sf::err()
// while static objects are destroyed at exit.
AudioErrorFilter& audio_errors() {
    static AudioErrorFilter* filter = [] {
        // OpenAL Soft logs its own failures straight to stderr unless told not to (the user's
        // ALSOFT_LOGLEVEL wins); SFML's report of them is the one line we keep.
        ::setenv("ALSOFT_LOGLEVEL", "0", 0);
        auto* f = new AudioErrorFilter(sf::err().rdbuf());
        sf::err().rdbuf(f);
        return f;
    }();
    return *filter;
}

// alsa-lib prints a dozen lines of its own to stderr each time OpenAL probes a machine with no
// sound card; stderr points at /dev/null while the sounds are made, and SFML's verdict is said after.
class StderrShut {
public:
    StderrShut() {
        std::fflush(stderr);
        saved_ = ::dup(2);
        const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (saved_ >= 0 && null >= 0) ::dup2(null, 2);
        if (null >= 0) ::close(null);
        audio_errors().hold(true);
    }
    ~StderrShut() {
        std::fflush(stderr);
        if (saved_ >= 0) {
            ::dup2(saved_, 2);
            ::close(saved_);
        }
        audio_errors().hold(false);
    }
    StderrShut(const StderrShut&) = delete;
    StderrShut& operator=(const StderrShut&) = delete;

private:
    int saved_ = -1;
};

}  // namespace

std::vector<std::filesystem::path> font_candidates() {
    std::vector<std::filesystem::path> out;
    if (const char* env = std::getenv("XQ_FONT")) out.emplace_back(env);
    out.emplace_back("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc");
    out.emplace_back("/usr/share/fonts/wqy-microhei/wqy-microhei.ttc");
    return out;
}

Resources::Resources(bool muted) : muted_(muted) {
    std::string tried;
    bool loaded = false;
    for (const auto& path : font_candidates()) {
        tried += " " + path.string();
        if (std::filesystem::exists(path) && font_.loadFromFile(path.string())) {
            loaded = true;
            break;
        }
    }
    if (!loaded)
        throw std::runtime_error("no CJK font found (install fonts-wqy-microhei or set XQ_FONT); tried:" + tried);
    if (!muted) make_sounds();  // muted from the start: no audio device is opened at all
}

void Resources::set_muted(bool muted) {
    muted_ = muted;
    if (!muted_ && !sounds_) make_sounds();
}

void Resources::make_sounds() {
    // SFML opens the audio device for the first sound object and, when that failed, a probe of
    // its own for every buffer loaded: all of it happens here, with alsa-lib's chatter shut out.
    const StderrShut quiet;
    sounds_ = std::make_unique<Sounds>();
    auto& buffers_ = sounds_->buffers;
    std::vector<float> wave;
    add_tone(wave, 0, 620, 70, 0.5, 1.6);  // Move: a short wooden tock
    buffers_[static_cast<int>(SoundCue::Move)] = to_buffer(wave);
    wave.clear();
    add_tone(wave, 0, 420, 120, 0.6, 2.0);  // Capture: lower and heavier
    add_tone(wave, 35, 300, 120, 0.4, 1.0);
    buffers_[static_cast<int>(SoundCue::Capture)] = to_buffer(wave);
    wave.clear();
    add_tone(wave, 0, 880, 110, 0.4, 0.6);  // Check: two quick high notes
    add_tone(wave, 130, 880, 160, 0.4, 0.6);
    buffers_[static_cast<int>(SoundCue::Check)] = to_buffer(wave);
    wave.clear();
    add_tone(wave, 0, 523, 300, 0.3, 0.2);  // Game end: a rising triad
    add_tone(wave, 150, 659, 300, 0.3, 0.2);
    add_tone(wave, 300, 784, 600, 0.3, 0.2);
    buffers_[static_cast<int>(SoundCue::GameEnd)] = to_buffer(wave);
    wave.clear();
    add_tone(wave, 0, 150, 180, 0.4, 0.3);  // Refused: a low buzz
    buffers_[static_cast<int>(SoundCue::Refused)] = to_buffer(wave);
    for (std::size_t i = 0; i < buffers_.size(); ++i) sounds_->sounds[i].setBuffer(buffers_[i]);
}

void Resources::play(SoundCue cue) {
    if (muted_ || !sounds_ || audio_errors().failed()) return;  // no device: nothing to hear, nothing to say again
    sounds_->sounds[static_cast<std::size_t>(cue)].play();
}

}  // namespace xq::client
