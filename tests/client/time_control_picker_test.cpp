// The time-control picker's model: presets, the custom fields' validation, and "no clock" only
// where it is allowed.

#include <gtest/gtest.h>

#include <algorithm>

#include "client/model/time_control_picker.h"

namespace xq::client {
namespace {

std::size_t index_of(TimeControlChoice tc) {
    const auto& presets = standard_time_controls();
    return static_cast<std::size_t>(std::ranges::find(presets, tc) - presets.begin());
}

TEST(TimeControlPicker, PresetsCoverBulletToClassicalWithTheBotsFivePlusThree) {
    const auto& presets = standard_time_controls();
    EXPECT_EQ(presets.size(), 9u);  // with Custom, a 5 x 2 grid
    for (TimeControlChoice tc : {TimeControlChoice{1, 0, std::nullopt}, TimeControlChoice{3, 2, std::nullopt},
                                 TimeControlChoice{5, 3, std::nullopt}, TimeControlChoice{30, 20, std::nullopt}})
        EXPECT_LT(index_of(tc), presets.size()) << to_string(tc);
}

TEST(TimeControlPicker, StartsOnThePresetItWasGivenAndSwitchesBetweenPresets) {
    TimeControlPicker picker(false, TimeControlChoice{10, 5, std::nullopt});
    EXPECT_TRUE(picker.is_preset(index_of({10, 5, std::nullopt})));
    EXPECT_EQ(picker.label(), "10+5");
    picker.pick_preset(index_of({3, 2, std::nullopt}));
    EXPECT_EQ(*picker.choice(), (TimeControlChoice{3, 2, std::nullopt}));
    picker.pick_preset(99);  // out of range: ignored
    EXPECT_EQ(picker.label(), "3+2");
}

TEST(TimeControlPicker, NoClockOnlyWhereAllowed) {
    TimeControlPicker online(false, std::nullopt);
    EXPECT_EQ(online.kind(), TimeControlPicker::Kind::Preset);
    online.pick_no_clock();
    EXPECT_NE(online.kind(), TimeControlPicker::Kind::NoClock);
    ASSERT_TRUE(online.choice());
    EXPECT_TRUE(online.choice()->has_value());

    TimeControlPicker offline(true, std::nullopt);
    EXPECT_EQ(offline.kind(), TimeControlPicker::Kind::NoClock);
    EXPECT_EQ(offline.label(), "No clock");
    ASSERT_TRUE(offline.choice());
    EXPECT_FALSE(offline.choice()->has_value());
}

TEST(TimeControlPicker, CustomFieldsAreValidatedWithAMessage) {
    TimeControlPicker picker(false, TimeControlChoice{5, 3, std::nullopt});
    picker.pick_custom();
    picker.set_custom_text("25", "15");
    EXPECT_EQ(*picker.choice(), (TimeControlChoice{25, 15, std::nullopt}));
    EXPECT_EQ(picker.label(), "25+15");

    picker.set_custom_text("0", "5");
    ASSERT_FALSE(picker.choice());
    EXPECT_EQ(picker.choice().error(), "Minutes must be 1 to 180");
    EXPECT_EQ(picker.label(), "?");
    picker.set_custom_text("181", "5");
    EXPECT_FALSE(picker.choice());
    picker.set_custom_text("abc", "5");
    EXPECT_FALSE(picker.choice());
    picker.set_custom_text("", "5");
    EXPECT_FALSE(picker.choice());
    picker.set_custom_text("5", "61");
    EXPECT_EQ(picker.choice().error(), "Increment must be 0 to 60 s");
    picker.set_custom_text("5", "-1");
    EXPECT_FALSE(picker.choice());
    picker.set_custom_text(" 180 ", "60");
    EXPECT_EQ(*picker.choice(), (TimeControlChoice{180, 60, std::nullopt}));

    // Back to a preset, the custom text stays for next time.
    picker.pick_preset(0);
    EXPECT_EQ(picker.label(), "1+0");
    EXPECT_EQ(picker.minutes_text(), " 180 ");
}

TEST(TimeControlPicker, AControlOffTheGridStartsAsCustom) {
    TimeControlPicker picker(true, TimeControlChoice{7, 4, std::nullopt});
    EXPECT_EQ(picker.kind(), TimeControlPicker::Kind::Custom);
    EXPECT_EQ(picker.label(), "7+4");
}

}  // namespace
}  // namespace xq::client
