// JavaFloat: a float as Java's Float.toString prints it ("0.9", "120.0",
// "1.0E-4"), for the numbers Hadoop's queue messages show.
#pragma once

#include <string>

namespace spindle::rm {

std::string JavaFloat(float value);

}  // namespace spindle::rm
