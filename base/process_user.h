// The user this process runs as, as a JVM and Hadoop's UserGroupInformation
// see it, so that Spindle derives names and paths exactly as the Java daemon
// it replaces would.
//
// Thread-safety: every function is thread-safe (getpwuid_r).
#pragma once

#include <string>

namespace spindle {

// Java's user.name: the passwd name of the real uid (the JVM calls
// getpwuid(getuid()) and ignores $USER), "?" when the uid has no entry.
std::string ProcessUserName();

// Java's user.home: the passwd home directory of the real uid, "?" when the
// uid has no entry.
std::string ProcessUserHome();

// Hadoop's login user in SIMPLE mode (UserGroupInformation.getLoginUser):
// $HADOOP_USER_NAME when set and not empty, else ProcessUserName().
std::string LoginUserName();

}  // namespace spindle
