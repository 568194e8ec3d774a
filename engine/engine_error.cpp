#include "engine/engine_error.h"

namespace xq::engine {

std::string_view code_name(EngineErrorCode code) {
    switch (code) {
        case EngineErrorCode::NotFound: return "not_found";
        case EngineErrorCode::SpawnFailed: return "spawn_failed";
        case EngineErrorCode::Died: return "died";
        case EngineErrorCode::Timeout: return "timeout";
        case EngineErrorCode::Protocol: return "protocol";
        case EngineErrorCode::BadPosition: return "bad_position";
        case EngineErrorCode::NoLegalMove: return "no_legal_move";
        case EngineErrorCode::Cancelled: return "cancelled";
    }
    return "unknown";
}

}  // namespace xq::engine
