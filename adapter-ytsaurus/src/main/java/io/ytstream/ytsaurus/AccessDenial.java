package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A permission check the server refused: an AuthorizationError (901) that carries the {@code user}
 * and {@code permission} attributes the security client gives it ({@code
 * yt/yt/client/api/security_client.cpp}, {@code TCheckPermissionResult::ToError}). A 901 without
 * them (a consumer not registered for a queue) is not one. The server's text names neither the
 * token nor, unless an entry denied it, the node; the caller adds the paths it sent.
 */
record AccessDenial(String user, String permission) {

  /** The first such error in {@code error} or its inner errors, depth first. */
  static Optional<AccessDenial> find(JsonNode error) {
    JsonNode attributes = error.path("attributes");
    if (error.path("code").asInt() == 901
        && attributes.path("user").isTextual()
        && attributes.path("permission").isTextual()) {
      return Optional.of(
          new AccessDenial(
              attributes.path("user").asText(), attributes.path("permission").asText()));
    }
    for (JsonNode inner : error.path("inner_errors")) {
      Optional<AccessDenial> found = find(inner);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /**
   * What to tell the user: who lacks which permission {@code where} ("on the table the transaction
   * writes", "on both //q and //p"), the server's words, and how to fix it.
   */
  String describe(String command, String where, String serverMessage) {
    return command
        + " was refused: YTsaurus user \""
        + user
        + "\" lacks the \""
        + permission
        + "\" permission "
        + where
        + " (server: "
        + serverMessage
        + "). Grant it with an ACE {action=allow; subjects=["
        + user
        + "]; permissions=["
        + permission
        + "]} in the acl of that node or of a parent (and no deny entry for the user there), or"
        + " connect with the token of a user who has it";
  }
}
