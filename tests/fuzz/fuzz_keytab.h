// A keytab with one AES key for a principal, made with krb5's own API, so a
// fuzzer can run a GSS-API acceptor without a KDC (random bytes never make a
// valid ticket: what is fuzzed is token parsing and our handling of it).
#pragma once

#include <string>

namespace spindle::fuzz {

// Appends the key of `principal` ("svc/host@REALM") to the keytab at `path`.
bool WriteKeytab(const std::string& principal, const std::string& path);

// A krb5.conf naming `realm` as the default, in a fresh directory under the
// temporary one, made this process's (KRB5_CONFIG), with no replay cache
// (KRB5RCACHETYPE=none); returns that directory.
std::string UseFuzzRealm(const std::string& name, const std::string& realm);

}  // namespace spindle::fuzz
