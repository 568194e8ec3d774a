#pragma once
// What a player can ask of the game it is in. The online adapter sends these to the server; the
// hotseat game applies them at once. Screens call these and never talk to a server themselves.

#include <string>

#include "client/model/game_model.h"

namespace xq::client {

class GameActions {
public:
    virtual ~GameActions() = default;
    virtual void move(Move m) = 0;
    virtual void resign() = 0;
    virtual void offer(OfferType kind) = 0;
    virtual void answer(OfferType kind, bool accept) = 0;
    virtual void abort_game() = 0;
    virtual void chat(const std::string& text) = 0;
    virtual void claim(bool win) = 0;  // the opponent's reconnection grace ran out
    virtual void leave() = 0;          // back to the lobby (stops watching, cancels a waiting game)
};

}  // namespace xq::client
