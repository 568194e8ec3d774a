#pragma once
// A rating-history plot: round rating ticks on the left, the time of the first and last games
// under it, and one line per speed in its own colour, with a legend.

#include <vector>

#include <SFML/Graphics.hpp>

#include "client/model/ratings_model.h"
#include "client/view/ui.h"

namespace xq::client {

// The colour a speed is drawn in, in the plot and beside its row of the ratings table.
sf::Color speed_color(SpeedPool speed);

// Draws the histories of `speeds` (those with points) in `r`.
void draw_rating_plot(sf::RenderTarget& target, const sf::Font& font, const Rect& r,
                      const std::vector<SpeedRecordView>& speeds);

}  // namespace xq::client
