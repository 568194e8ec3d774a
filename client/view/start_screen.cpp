#include "start_screen.h"

#include "client/model/layout.h"
#include "client/net/discovery_browser.h"
#include "client/online/online_client.h"
#include "client/view/records.h"

namespace xq::client {

StartScreen::StartScreen(ScreenContext& context, std::string address, std::string name)
    : ctx_(context), address_field_(std::move(address), 200), name_field_(std::move(name), 40) {}

bool StartScreen::connect(const std::string& address, const std::string& fingerprint) {
    const auto endpoint = parse_endpoint(address);
    if (!endpoint) {
        error_ = "\"" + address + "\" is not an address: write host or host:port";
        return false;
    }
    // An account's login needs no guest name: the account's name stands in until it is answered.
    if (name_field_.value().empty()) name_field_.set(login_.account());
    if (name_field_.value().empty()) {
        error_ = "Choose a name first";
        return false;
    }
    error_.clear();
    ctx_.online.connect(*endpoint, name_field_.value(), fingerprint);
    return true;
}

void StartScreen::handle(const sf::Event& event) {
    if (choosing_clock_) {
        clock_picker_.handle(event);
        return;
    }
    if (address_field_.handle(event) || name_field_.handle(event)) connect(address_field_.value());
    if (login_.handle(event)) login_.submit(false, [this] { return connect(address_field_.value()); });
}

void StartScreen::tick(TimePoint now) {
    // Look for servers on the LAN now and then while this screen is up.
    if (now - last_search_ > std::chrono::seconds(5)) {
        last_search_ = now;
        ctx_.discovery.refresh();
    }
}

void StartScreen::draw(sf::RenderTarget& target, ui::Input& in, TimePoint now) {
    if (!choosing_clock_) return draw_main(target, in, now);
    ui::Input behind = in;  // the screen under the picker is shown, not clicked
    behind.pressed = behind.released = false;
    draw_main(target, behind, now);
    draw_clock_picker(target, in);
}

void StartScreen::draw_clock_picker(sf::RenderTarget& target, ui::Input& in) {
    const sf::Font& font = ctx_.resources.font();
    const auto size = target.getView().getSize();
    ui::box(target, {0, 0, size.x, size.y}, sf::Color(0, 0, 0, 140));
    const float w = std::min(460.0f, size.x - 40), pad = 16;
    const float h = 46 + clock_picker_.height(w - 2 * pad) + 62;
    const Rect panel{(size.x - w) / 2, std::max(10.0f, (size.y - h) / 2), w, h};
    ui::box(target, panel, ui::color::kPanel, ui::color::kPanelLine, 1);
    ui::text(target, font, "Clock for games on this screen", {panel.x + pad, panel.y + 12}, 18, ui::color::kText);
    const float used = clock_picker_.draw(target, font, in, {panel.x + pad, panel.y + 46, w - 2 * pad, 0});
    const bool valid = ctx_.local_clock.choice().has_value();
    if (ui::button(target, font, in, {panel.x + pad, panel.y + 46 + used + 14, w - 2 * pad, 36}, "Done", valid, true))
        choosing_clock_ = false;
}

void StartScreen::draw_main(sf::RenderTarget& target, ui::Input& in, TimePoint) {
    const sf::Font& font = ctx_.resources.font();
    const auto size = target.getView().getSize();
    ui::box(target, {0, 0, size.x, size.y}, ui::color::kBackground);
    const float w = std::min(560.0f, size.x - 40), x = (size.x - w) / 2;
    // A short window tightens the spacing; the buttons at the foot stay in view at any height.
    const bool compact = size.y < 600;
    const float field_h = compact ? 32 : 36, step = compact ? 40 : 46;
    float y = compact ? 12 : std::max(20.0f, size.y * 0.08f);
    ui::text(target, font, "象棋", {size.x / 2, y}, compact ? 44 : 64, ui::color::kAccent, ui::Align::Center);
    y += compact ? 60 : 86;
    ui::text(target, font, "Xiangqi — play, watch and host Chinese chess", {size.x / 2, y}, compact ? 16 : 18,
             ui::color::kMuted, ui::Align::Center);
    y += compact ? 32 : 46;
    ui::text(target, font, "Server", {x, y + 8}, 16, ui::color::kMuted);
    address_field_.draw(target, font, in, {x + 80, y, w - 80, field_h}, "host:port");
    y += step;
    ui::text(target, font, "Name", {x, y + 8}, 16, ui::color::kMuted);
    name_field_.draw(target, font, in, {x + 80, y, w - 80, field_h}, "your name");
    y += step;
    login_.draw(target, in, {x, y, w, field_h}, [this] { return connect(address_field_.value()); });
    y += step + 4;
    const bool busy = ctx_.online.status() == LinkStatus::Connecting || ctx_.online.status() == LinkStatus::Reconnecting;
    if (ui::button(target, font, in, {x, y, w, field_h + 6}, busy ? "Connecting…" : "Connect", !busy, true))
        connect(address_field_.value());
    y += field_h + 16;
    const std::string line = !error_.empty() ? error_ : ctx_.online.status() == LinkStatus::Offline ? "" : ctx_.status;
    ui::text(target, font, ui::elide(font, line, 15, w), {x, y}, 15,
             ctx_.online.status() == LinkStatus::Failed || !error_.empty() ? ui::color::kDanger : ui::color::kMuted);
    y += compact ? 26 : 32;
    const float button_h = compact ? 36 : 40;
    // Where the three rows of buttons start (hosting and hotseat; the computer; the clock for games
    // here and records from files): always in view, the LAN list gets what room is left above.
    const float foot = size.y - 3 * button_h - 20 - (compact ? 16 : 40);

    const auto servers = ctx_.discovery.servers();
    if (y + 30 + 30 <= foot) {
        ui::text(target, font,
                 ctx_.discovery.searching() ? "Servers on your network (searching…)" : "Servers on your network", {x, y},
                 17, ui::color::kAccent);
        y += 30;
        if (servers.empty()) ui::text(target, font, "None found yet.", {x + 10, y}, 15, ui::color::kMuted);
    } else {
        y = foot;  // no room for the list
    }
    for (const auto& s : servers) {
        if (y + 38 > foot - 8) break;
        const Rect row{x, y, w, 38};
        ui::box(target, row, row.contains(in.mouse) ? sf::Color(62, 58, 52) : sf::Color(44, 41, 38), ui::color::kPanelLine, 1);
        ui::text(target, font, ui::elide(font, s.name, 16, w - 300), {row.x + 10, row.y + 8}, 16, ui::color::kText);
        ui::text(target, font,
                 s.address + ":" + std::to_string(s.port) + "   " + std::to_string(s.open_games) + " open",
                 {row.x + row.w - 100, row.y + 10}, 14, ui::color::kMuted, ui::Align::Right);
        if (ui::button(target, font, in, {row.x + row.w - 92, row.y + 4, 86, 30}, "Join", !busy)) {
            const std::string address = to_string(s.endpoint());
            address_field_.set(address);
            connect(address, s.fingerprint);  // announced on the LAN: no question, still checked
        }
        y += 42;
    }
    y = foot;
    const auto pair = row_cells<2>({x, y, w, button_h}, 10);
    if (ui::button(target, font, in, pair[0], "Host a LAN game", !busy)) ctx_.host_game();
    if (ui::button(target, font, in, pair[1], "Play on this screen")) ctx_.start_hotseat();
    const auto three = row_cells<3>({x, y + button_h + 10, w, button_h}, 10);
    if (ui::button(target, font, in, three[0], "Level " + std::to_string(ctx_.computer_level)))
        ctx_.computer_level = ctx_.computer_level % 8 + 1;
    if (ui::button(target, font, in, three[1], computer_side_ == Color::Red ? "as Red" : "as Black"))
        computer_side_ = ~computer_side_;
    if (ui::button(target, font, in, three[2], "Play the computer", true, true))
        ctx_.start_computer(computer_side_, ctx_.computer_level);
    const auto last = row_cells<3>({x, y + 2 * (button_h + 10), w, button_h}, 10);
    if (ui::button(target, font, in, last[0], "Clock: " + ctx_.local_clock.label())) choosing_clock_ = true;
    draw_records_buttons(target, ctx_, in, {last[1].x, last[1].y, last[2].x + last[2].w - last[1].x, button_h});
}

}  // namespace xq::client
