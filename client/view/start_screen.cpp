#include "start_screen.h"

#include "client/net/discovery_browser.h"
#include "client/online/online_client.h"
#include "client/view/records.h"

namespace xq::client {

StartScreen::StartScreen(ScreenContext& context, std::string address, std::string name)
    : ctx_(context), address_field_(std::move(address), 200), name_field_(std::move(name), 40) {}

void StartScreen::connect(const std::string& address) {
    const auto endpoint = parse_endpoint(address);
    if (!endpoint) {
        error_ = "\"" + address + "\" is not an address: write host or host:port";
        return;
    }
    if (name_field_.value().empty()) {
        error_ = "Choose a name first";
        return;
    }
    error_.clear();
    ctx_.online.connect(*endpoint, name_field_.value());
}

void StartScreen::handle(const sf::Event& event) {
    if (address_field_.handle(event) || name_field_.handle(event)) connect(address_field_.value());
}

void StartScreen::draw(sf::RenderTarget& target, ui::Input& in, TimePoint now) {
    // Look for servers on the LAN now and then while this screen is up.
    if (now - last_search_ > std::chrono::seconds(5)) {
        last_search_ = now;
        ctx_.discovery.refresh();
    }
    const sf::Font& font = ctx_.resources.font();
    const auto size = target.getView().getSize();
    ui::box(target, {0, 0, size.x, size.y}, ui::color::kBackground);
    const float w = std::min(560.0f, size.x - 40), x = (size.x - w) / 2;
    float y = std::max(20.0f, size.y * 0.08f);
    ui::text(target, font, "象棋", {size.x / 2, y}, 64, ui::color::kAccent, ui::Align::Center);
    y += 86;
    ui::text(target, font, "Xiangqi — play, watch and host Chinese chess", {size.x / 2, y}, 18, ui::color::kMuted,
             ui::Align::Center);
    y += 46;
    ui::text(target, font, "Server", {x, y + 8}, 16, ui::color::kMuted);
    address_field_.draw(target, font, in, {x + 80, y, w - 80, 36}, "host:port");
    y += 46;
    ui::text(target, font, "Name", {x, y + 8}, 16, ui::color::kMuted);
    name_field_.draw(target, font, in, {x + 80, y, w - 80, 36}, "your name");
    y += 50;
    const bool busy = ctx_.online.status() == LinkStatus::Connecting || ctx_.online.status() == LinkStatus::Reconnecting;
    if (ui::button(target, font, in, {x, y, w, 42}, busy ? "Connecting…" : "Connect", !busy, true))
        connect(address_field_.value());
    y += 52;
    const std::string line = !error_.empty() ? error_ : ctx_.online.status() == LinkStatus::Offline ? "" : ctx_.status;
    ui::text(target, font, ui::elide(font, line, 15, w), {x, y}, 15,
             ctx_.online.status() == LinkStatus::Failed || !error_.empty() ? ui::color::kDanger : ui::color::kMuted);
    y += 32;

    ui::text(target, font, ctx_.discovery.searching() ? "Servers on your network (searching…)" : "Servers on your network",
             {x, y}, 17, ui::color::kAccent);
    y += 30;
    const auto servers = ctx_.discovery.servers();
    if (servers.empty()) {
        ui::text(target, font, "None found yet.", {x + 10, y}, 15, ui::color::kMuted);
        y += 36;
    }
    for (const auto& s : servers) {
        if (y > size.y - 150) break;
        const Rect row{x, y, w, 38};
        ui::box(target, row, row.contains(in.mouse) ? sf::Color(62, 58, 52) : sf::Color(44, 41, 38), ui::color::kPanelLine, 1);
        ui::text(target, font, ui::elide(font, s.name, 16, w - 300), {row.x + 10, row.y + 8}, 16, ui::color::kText);
        ui::text(target, font,
                 s.address + ":" + std::to_string(s.port) + "   " + std::to_string(s.open_games) + " open",
                 {row.x + row.w - 100, row.y + 10}, 14, ui::color::kMuted, ui::Align::Right);
        if (ui::button(target, font, in, {row.x + row.w - 92, row.y + 4, 86, 30}, "Join", !busy)) {
            const std::string address = to_string(s.endpoint());
            address_field_.set(address);
            connect(address);
        }
        y += 42;
    }
    y = std::max(y + 10, size.y - 200);
    const float half = (w - 10) / 2;
    if (ui::button(target, font, in, {x, y, half, 40}, "Host a LAN game", !busy)) ctx_.host_game();
    if (ui::button(target, font, in, {x + half + 10, y, half, 40}, "Play on this screen")) ctx_.start_hotseat();
    y += 50;
    const float third = (w - 20) / 3;
    if (ui::button(target, font, in, {x, y, third, 40}, "Level " + std::to_string(ctx_.computer_level)))
        ctx_.computer_level = ctx_.computer_level % 8 + 1;
    if (ui::button(target, font, in, {x + third + 10, y, third, 40}, computer_side_ == Color::Red ? "as Red" : "as Black"))
        computer_side_ = ~computer_side_;
    if (ui::button(target, font, in, {x + 2 * third + 20, y, third, 40}, "Play the computer", true, true))
        ctx_.start_computer(computer_side_, ctx_.computer_level);
    draw_records_buttons(target, ctx_, in, {x, y + 50, w, 40});
}

}  // namespace xq::client
