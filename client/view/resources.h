#pragma once
// Everything the client loads, loaded once at start and owned here: the CJK font for pieces and
// text, and the sounds (synthesised, so the client ships no audio files).

#include <array>
#include <filesystem>
#include <memory>

#include <SFML/Audio.hpp>
#include <SFML/Graphics/Font.hpp>

#include "client/model/game_model.h"

namespace xq::client {

class Resources {
public:
    // Throws std::runtime_error naming the paths tried when no usable font is found.
    explicit Resources(bool muted);

    const sf::Font& font() const { return font_; }
    void play(SoundCue cue);
    bool muted() const { return muted_; }
    void set_muted(bool muted);

private:
    void make_sounds();

    sf::Font font_;
    bool muted_ = false;
    // Made on first use: creating them opens the audio device, which a muted client never needs.
    struct Sounds {
        std::array<sf::SoundBuffer, 5> buffers;
        std::array<sf::Sound, 5> sounds;
    };
    std::unique_ptr<Sounds> sounds_;
};

// The font files tried in order: $XQ_FONT, then WenQuanYi Micro Hei from fonts-wqy-microhei.
std::vector<std::filesystem::path> font_candidates();

}  // namespace xq::client
