#pragma once
// What every screen may use: the shared resources, the models it draws, and where a player's
// actions go. Screens own none of these; the App does.

#include <functional>
#include <string>

#include "client/model/game_actions.h"
#include "client/model/lobby_model.h"
#include "client/view/resources.h"
#include "client/view/ui.h"

namespace xq::client {

class OnlineClient;
class DiscoveryBrowser;

struct ScreenContext {
    Resources& resources;
    GameModel& game;
    LobbyModel& lobby;
    OnlineClient& online;
    DiscoveryBrowser& discovery;
    GameActions* actions = nullptr;  // the online client or the hotseat game
    bool hotseat = false;
    bool flipped = false;
    std::string status;  // the connection line shown at the bottom
    std::function<void()> start_hotseat;
    std::function<void()> host_game;  // start a local server for the LAN and connect to it
    std::function<void(const std::string&)> toast;
    std::function<void()> save_pgn;
    std::function<void()> back;  // leave the current screen
};

}  // namespace xq::client
