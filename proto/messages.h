#pragma once
// The protocol's messages as plain C++ values: ClientMessage and ServerMessage, each a request id
// plus a std::variant body. codec.h turns them into bytes and back.

#include "client_messages.h"  // IWYU pragma: export
#include "server_messages.h"  // IWYU pragma: export
#include "types.h"            // IWYU pragma: export
