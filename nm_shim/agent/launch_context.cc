#include "nm_shim/agent/launch_context.h"

#include "rm/security/yarn_id_protos.h"

namespace spindle::nm {

namespace {

LocalResource DecodeResource(const std::string& name, const hadoop::yarn::LocalResourceProto& r) {
  LocalResource out;
  out.name = name;
  out.scheme = r.resource().scheme();
  out.host = r.resource().host();
  out.port = r.resource().has_port() ? r.resource().port() : -1;
  out.path = r.resource().file();
  out.size = r.has_size() ? r.size() : -1;
  out.timestamp = r.has_timestamp() ? r.timestamp() : -1;
  switch (r.type()) {
    case hadoop::yarn::ARCHIVE:
      out.type = LocalResource::Type::kArchive;
      break;
    case hadoop::yarn::PATTERN:
      out.type = LocalResource::Type::kPattern;
      break;
    default:
      out.type = LocalResource::Type::kFile;
  }
  switch (r.visibility()) {
    case hadoop::yarn::PUBLIC:
      out.visibility = LocalResource::Visibility::kPublic;
      break;
    case hadoop::yarn::PRIVATE:
      out.visibility = LocalResource::Visibility::kPrivate;
      break;
    default:
      out.visibility = LocalResource::Visibility::kApplication;
  }
  out.pattern = r.pattern();
  return out;
}

}  // namespace

ContainerLaunchSpec DecodeLaunchContext(const hadoop::yarn::ContainerLaunchContextProto& clc,
                                        const hadoop::yarn::ContainerTokenIdentifierProto& token) {
  ContainerLaunchSpec spec;
  spec.container = rm::FromProto(token.containerid());
  spec.user = token.appsubmitter();
  spec.memory_mb = token.resource().memory();
  spec.vcores = token.resource().virtual_cores();
  for (const auto& e : clc.environment()) spec.environment[e.key()] = e.value();
  spec.commands.assign(clc.command().begin(), clc.command().end());
  for (const auto& r : clc.localresources()) {
    spec.local_resources.push_back(DecodeResource(r.key(), r.value()));
  }
  spec.credentials = clc.tokens();
  return spec;
}

}  // namespace spindle::nm
