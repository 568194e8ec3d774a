#pragma once
// What every screen may use: the shared resources, the models it draws, and where a player's
// actions go. Screens own none of these; the App does.

#include <functional>
#include <string>

#include "client/model/game_actions.h"
#include "client/model/lobby_model.h"
#include "client/model/time_control_picker.h"
#include "client/view/resources.h"
#include "client/view/ui.h"

namespace xq::client {

class OnlineClient;
class DiscoveryBrowser;
class Analysis;

struct ScreenContext {
    ScreenContext(Resources& r, GameModel& g, LobbyModel& l, OnlineClient& o, DiscoveryBrowser& d)
        : resources(r), game(g), lobby(l), online(o), discovery(d) {}

    Resources& resources;
    GameModel& game;
    LobbyModel& lobby;
    OnlineClient& online;
    DiscoveryBrowser& discovery;
    GameActions* actions = nullptr;  // the online client or the hotseat game
    bool hotseat = false;
    bool computer = false;  // playing the computer offline
    int computer_level = 3;
    // The clocks of games on this machine (hotseat, the computer offline): none unless chosen.
    TimeControlPicker local_clock{true, std::nullopt};
    // The engine's evaluation and hints: set only where allowed (replay, a finished game, a game
    // against the computer), never while a person is being played live.
    Analysis* analysis = nullptr;
    bool flipped = false;
    std::string status;  // the connection line shown at the bottom
    std::function<void()> start_hotseat;
    std::function<void(Color side, int level)> start_computer;
    std::function<void()> host_game;  // start a local server for the LAN and connect to it
    std::function<void()> save_pgn;
    std::function<void()> open_pgn;          // the file dialog, then the game picked replays
    std::function<void()> set_up_position;   // a FEN, then that position on the game screen
    std::function<void()> back;  // leave the current screen
};

}  // namespace xq::client
