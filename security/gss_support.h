// Small pieces every MIT GSS-API user in Spindle needs: turning a GSS status
// into words, owning the buffers GSS-API allocates, viewing our bytes as a
// gss_buffer_desc and importing a name. SASL GSSAPI on the RPC ports
// (wire/ipc/gssapi_mechanism) and SPNEGO on HTTP (security/spnego_acceptor)
// both run on them.
//
// Thread contract: free functions and per-owner values; thread-safe.
#pragma once

#include <gssapi/gssapi.h>

#include <string>
#include <string_view>

#include "base/result.h"

namespace spindle::security {

// major/minor status as GSS-API's own words ("Unspecified GSS failure: ...").
std::string GssStatusText(OM_uint32 major, OM_uint32 minor);

// Unauthorized "GSS-API <what> failed: <GssStatusText>".
Status GssFailure(std::string_view what, OM_uint32 major, OM_uint32 minor);

// Owns a buffer GSS-API allocated (released on destruction).
struct GssOwnedBuffer {
  gss_buffer_desc buffer = GSS_C_EMPTY_BUFFER;
  GssOwnedBuffer() = default;
  GssOwnedBuffer(const GssOwnedBuffer&) = delete;
  GssOwnedBuffer& operator=(const GssOwnedBuffer&) = delete;
  ~GssOwnedBuffer();
  std::string str() const;
};

// `bytes` as an input buffer (GSS-API does not write through it).
gss_buffer_desc GssView(std::string_view bytes);

// gss_import_name of `text` with name type `type`; the caller releases it.
Result<gss_name_t> GssImportName(std::string_view text, gss_OID type);

// gss_display_name of `name` ("alice@REALM").
Result<std::string> GssDisplayName(gss_name_t name);

}  // namespace spindle::security
