#include "computer_game.h"

#include "common/iccs.h"

namespace xq::client {

// The engine's answer, handed from its worker thread to the UI thread.
struct ComputerGame::Answer {
    std::mutex mutex;
    std::optional<engine::AsyncEngine::MoveResult> result;
    int for_ply = -1;  // the ply count the question was asked at; a stale answer is dropped
};

namespace {

engine::EngineOptions options_for(int level) {
    const auto row = engine::level(level).value_or(*engine::level(engine::kMaxLevel));
    return engine::EngineOptions::for_level(row);
}

}  // namespace

ComputerGame::ComputerGame(GameModel& model, std::string name, Color side, int level,
                           std::optional<TimeControlChoice> control, LocalClock::Now now)
    : model_(model),
      name_(std::move(name)),
      side_(side),
      level_(level),
      clock_(control, std::move(now)),
      engine_(options_for(level)) {
    new_game();
}

ComputerGame::~ComputerGame() = default;

void ComputerGame::forget_answer() {
    answer_ = std::make_shared<Answer>();  // any answer still on its way goes to the old one
    thinking_ = false;
}

void ComputerGame::new_game() {
    forget_answer();
    model_.clear_room();
    (void)model_.reset(Position::start(), {}, side_ == Color::Red ? Role::Red : Role::Black);
    const std::string computer = "Computer (level " + std::to_string(level_) + ")";
    model_.set_seat(side_, {name_, true, std::nullopt});
    model_.set_seat(~side_, {computer, true, std::nullopt});
    clock_.restart(model_);
    engine_.new_game();
    if (side_ == Color::Black) ask_engine();
}

void ComputerGame::ask_engine() {
    const int ply = model_.ply_count();
    {
        std::lock_guard lock(answer_->mutex);
        answer_->result.reset();
        answer_->for_ply = ply;
    }
    thinking_ = true;
    int think = engine::level(level_).value_or(*engine::level(engine::kMaxLevel)).think_time_ms;
    if (const auto left = clock_.remaining_ms(~side_))
        think = engine::think_time_ms(think, *left, std::int64_t{clock_.control()->increment_seconds} * 1000,
                                      std::nullopt);
    std::weak_ptr<Answer> slot = answer_;
    engine_.best_move(model_.position_at(0), model_.moves(), engine::SearchLimits::movetime(think),
                      [slot, ply](engine::AsyncEngine::MoveResult result) {
                          if (auto answer = slot.lock()) {
                              std::lock_guard lock(answer->mutex);
                              if (answer->for_ply == ply) answer->result = std::move(result);
                          }
                      });
}

bool ComputerGame::pump() {
    const bool flagged = clock_.check_flag(model_);
    if (flagged) forget_answer();
    if (!thinking_) return flagged;
    std::optional<engine::AsyncEngine::MoveResult> result;
    {
        std::lock_guard lock(answer_->mutex);
        if (!answer_->result || answer_->for_ply != model_.ply_count()) return false;
        result.swap(answer_->result);
    }
    thinking_ = false;
    if (!*result) {
        model_.set_notice("The computer could not move: " + result->error().message);
        return true;
    }
    last_eval_for_computer_ = (*result)->evaluation.for_side(~side_);
    if (auto played = model_.play_local((*result)->move); !played) model_.set_notice(played.error());
    clock_.follow(model_);
    if (const auto premove = model_.take_premove()) move(*premove);  // queued while it thought
    return true;
}

void ComputerGame::move(Move m) {
    if (clock_.check_flag(model_) || thinking_ || model_.result()) return;
    if (auto played = model_.play_local(m); !played) {
        model_.set_notice(played.error());
        return;
    }
    clock_.follow(model_);
    if (!model_.result()) ask_engine();
}

void ComputerGame::resign() {
    if (model_.result()) return;
    forget_answer();
    model_.finish({side_ == Color::Red ? Result::BlackWins : Result::RedWins, "resignation",
                   side_ == Color::Red ? "Red resigns: Black wins." : "Black resigns: Red wins."});
    clock_.follow(model_);
}

void ComputerGame::offer(OfferType kind) {
    if (model_.result() || thinking_) return;
    if (kind == OfferType::Draw) {
        // The computer takes a draw unless its last search saw it half a soldier or more ahead.
        if (model_.ply_count() >= 2 && last_eval_for_computer_ < 50) {
            model_.finish({Result::Draw, "agreement", "Draw agreed: the computer accepts."});
            clock_.follow(model_);
        } else {
            model_.set_notice("The computer declines the draw.");
        }
        return;
    }
    // A takeback returns to the player's previous turn: its move and the computer's answer.
    const int back = model_.position_at(model_.ply_count()).side_to_move() == side_ ? 2 : 1;
    if (model_.ply_count() >= back) (void)model_.take_back(back);
    clock_.follow(model_);
}

}  // namespace xq::client
