#include "client/view/trust_prompt.h"

#include "tls/certificate.h"

namespace xq::client {

void TrustPrompt::draw(sf::RenderTarget& target, const sf::Font& font, ui::Input& in, OnlineClient& online) {
    if (!online.trust_problem()) return;
    const TrustProblem problem = *online.trust_problem();
    const auto size = target.getView().getSize();
    ui::box(target, {0, 0, size.x, size.y}, sf::Color(0, 0, 0, 150));  // the screen below, dimmed
    const float w = std::min(680.0f, size.x - 20), x = (size.x - w) / 2;
    const float h = problem.changed ? 330.0f : 290.0f, y = std::max(10.0f, (size.y - h) / 2);
    const sf::Color frame = problem.changed ? ui::color::kDanger : ui::color::kAccent;
    ui::box(target, {x, y, w, h}, ui::color::kPanel, frame, 2);
    float line = y + 16;
    const auto say = [&](const std::string& text, unsigned size_px, sf::Color color) {
        for (const auto& part : ui::wrap(font, text, size_px, w - 40)) {
            ui::text(target, font, part, {x + 20, line}, size_px, color);
            line += static_cast<float>(size_px) + 7;
        }
    };
    const auto fingerprint = [&](const std::string& label, const std::string& hex, sf::Color color) {
        ui::text(target, font, label, {x + 20, line}, 15, ui::color::kMuted);
        line += 21;
        // Two rows of eight groups, for comparing by eye with what the server's operator reads out.
        const std::string shown = tls::display_fingerprint(hex);
        const std::size_t half = shown.size() / 2 + 1;
        ui::text(target, font, shown.substr(0, half), {x + 36, line}, 17, color);
        line += 23;
        ui::text(target, font, shown.substr(half), {x + 36, line}, 17, color);
        line += 30;
    };
    if (problem.changed) {
        say("Connection refused: the server's certificate has changed", 21, ui::color::kDanger);
        say(problem.server + " showed a different certificate from the one this client remembers. Someone may "
                              "be intercepting the connection, or the server was reinstalled. Nothing was sent to it.",
            15, ui::color::kText);
        line += 4;
        fingerprint("Remembered fingerprint (SHA-256)", problem.known, ui::color::kGood);
        fingerprint("Presented now", problem.presented, ui::color::kDanger);
        if (ui::button(target, font, in, {x + w - 140, y + h - 48, 120, 34}, "Close")) online.dismiss_trust_problem();
        return;
    }
    say("First connection to " + problem.server, 21, ui::color::kAccent);
    say("Its certificate is not signed by an authority this computer trusts. Compare its fingerprint with the "
        "one the server's operator sees in the server's log; trusted, it is remembered for next time.",
        15, ui::color::kText);
    line += 4;
    fingerprint("Fingerprint (SHA-256)", problem.presented, ui::color::kText);
    if (ui::button(target, font, in, {x + w - 280, y + h - 48, 120, 34}, "Trust")) online.trust_server();
    if (ui::button(target, font, in, {x + w - 140, y + h - 48, 120, 34}, "Cancel")) online.dismiss_trust_problem();
}

}  // namespace xq::client
