// SASL quality of protection as hadoop.rpc.protection names it
// (SaslRpcServer.QualityOfProtection, 2.6 and 3.3 alike): authentication ->
// "auth", integrity -> "auth-int", privacy -> "auth-conf". The key may list
// several ("authentication,privacy"); SaslPropertiesResolver keeps their
// order, which is the order of preference the SASL mechanisms use.
//
// Pure functions, safe from any thread.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace spindle::ipc {

enum class SaslQop { kAuth, kAuthInt, kAuthConf };

// The core-site.xml key (CommonConfigurationKeysPublic.HADOOP_RPC_PROTECTION).
inline constexpr char kRpcProtectionKey[] = "hadoop.rpc.protection";

// A preference list: never empty, no duplicates.
using SaslQops = std::vector<SaslQop>;

// "auth", "auth-int" or "auth-conf".
std::string_view SaslQopName(SaslQop qop);
// The inverse of SaslQopName; nullopt for anything else.
std::optional<SaslQop> SaslQopFromName(std::string_view name);

// hadoop.rpc.protection's value: comma separated, trimmed, any case, as
// Hadoop's QualityOfProtection.valueOf(toUpperCase) reads it. An empty value
// is the default, authentication. An unknown word is InvalidArgument with
// Java's IllegalArgumentException wording.
Result<SaslQops> ParseRpcProtection(std::string_view value);

// Whether frames after negotiation are wrapped (SaslRpcClient.useWrap: any
// qop but auth).
inline bool UsesWrap(SaslQop qop) { return qop != SaslQop::kAuth; }

// The first of `preferred` that `offered` has, or nullopt.
std::optional<SaslQop> FirstCommonQop(const SaslQops& preferred, const SaslQops& offered);

}  // namespace spindle::ipc
