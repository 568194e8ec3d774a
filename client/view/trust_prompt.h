#pragma once
// The server-trust dialog (issue 18), drawn over every screen while OnlineClient has a
// TrustProblem: for a server never seen, its fingerprint with Trust and Cancel; for a known server
// whose certificate changed, the refusal naming both fingerprints, with only Close.

#include <SFML/Graphics.hpp>

#include "client/online/online_client.h"
#include "client/view/ui.h"

namespace xq::client {

class TrustPrompt {
public:
    // True while a problem is shown (the screens below get no input then).
    static bool active(const OnlineClient& online) { return online.trust_problem().has_value(); }
    void draw(sf::RenderTarget& target, const sf::Font& font, ui::Input& in, OnlineClient& online);
};

}  // namespace xq::client
