#include "client/view/login_panel.h"

#include "client/model/layout.h"
#include "client/online/online_client.h"

namespace xq::client {

LoginPanel::LoginPanel(ScreenContext& context)
    : ctx_(context), account_field_("", 80), password_field_("", 128) {
    password_field_.set_masked(true);
}

bool LoginPanel::handle(const sf::Event& event) {
    return account_field_.handle(event) || password_field_.handle(event);
}

std::string LoginPanel::submit(bool create, const std::function<bool()>& connect) {
    if (account_field_.value().empty() || password_field_.value().empty())
        return error_ = "Type your account's name and password";
    error_.clear();
    if (ctx_.online.status() != LinkStatus::Online && !connect()) return error_;
    if (create) ctx_.online.register_account(account_field_.value(), password_field_.value());
    else ctx_.online.log_in(account_field_.value(), password_field_.value());
    password_field_.set("");  // not kept on screen once sent
    return {};
}

void LoginPanel::draw(sf::RenderTarget& target, ui::Input& in, const Rect& r, const std::function<bool()>& connect) {
    const sf::Font& font = ctx_.resources.font();
    const float label_w = 80, button_w = std::min(96.0f, r.w * 0.16f), gap = 8;
    const float field_w = (r.w - label_w - 2 * button_w - 3 * gap) / 2;
    ui::text(target, font, "Account", {r.x, r.y + 8}, 16, ui::color::kMuted);
    float x = r.x + label_w;
    account_field_.draw(target, font, in, {x, r.y, field_w, r.h}, "account");
    x += field_w + gap;
    password_field_.draw(target, font, in, {x, r.y, field_w, r.h}, "password");
    x += field_w + gap;
    const bool busy = ctx_.online.status() == LinkStatus::Connecting;
    if (ui::button(target, font, in, {x, r.y, button_w, r.h}, "Log in", !busy)) submit(false, connect);
    x += button_w + gap;
    if (ui::button(target, font, in, {x, r.y, button_w, r.h}, "Register", !busy)) submit(true, connect);
    if (!error_.empty())
        ui::text(target, font, ui::elide(font, error_, 13, r.w), {r.x + label_w, r.y + r.h + 2}, 13,
                 ui::color::kDanger);
}

}  // namespace xq::client
