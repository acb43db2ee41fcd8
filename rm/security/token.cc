#include "rm/security/token.h"

namespace spindle::rm {

void ToTokenProto(const Token& token, hadoop::common::TokenProto* proto) {
  proto->set_identifier(token.identifier);
  proto->set_password(token.password);
  proto->set_kind(token.kind);
  proto->set_service(token.service);
}

hadoop::common::TokenProto ToTokenProto(const Token& token) {
  hadoop::common::TokenProto proto;
  ToTokenProto(token, &proto);
  return proto;
}

Token FromTokenProto(const hadoop::common::TokenProto& proto) {
  return Token{proto.identifier(), proto.password(), proto.kind(), proto.service()};
}

}  // namespace spindle::rm
