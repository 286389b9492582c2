package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.AccessControlEntry;
import io.ytstream.inmemory.InMemoryCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code acl} and {@code inherit_acl} attributes a node may get at {@code create}, read before
 * the node is made (so a bad ACL creates nothing) and set on it after. An ACE is {@code
 * {action=allow|deny; subjects=[...]; permissions=[...]; inheritance_mode=...}}, as the server
 * takes it ({@code yt/yt/client/security_client/acl.h}, {@code TSerializableAccessControlEntry}).
 */
final class AclAttributes {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Optional<List<AccessControlEntry>> acl;
  private final Optional<Boolean> inheritAcl;

  private AclAttributes(Optional<List<AccessControlEntry>> acl, Optional<Boolean> inheritAcl) {
    this.acl = acl;
    this.inheritAcl = inheritAcl;
  }

  /** Reads both attributes of a {@code create}; 400 naming the attribute when one is malformed. */
  static AclAttributes of(YPath path, JsonNode attributes) {
    Optional<List<AccessControlEntry>> acl = Optional.empty();
    JsonNode aclNode = attributes.get("acl");
    if (aclNode != null && !aclNode.isNull()) {
      if (!aclNode.isArray()) {
        throw invalid(path, "acl", "expected a list of ACEs, got " + aclNode);
      }
      List<AccessControlEntry> entries = new ArrayList<>();
      for (JsonNode ace : aclNode) {
        if (!ace.isObject()) {
          throw invalid(path, "acl", "expected a list of ACE maps, got the item " + ace);
        }
        try {
          entries.add(AccessControlEntry.fromAttribute(JSON.convertValue(ace, Map.class)));
        } catch (IllegalArgumentException e) {
          throw invalid(path, "acl", e.getMessage());
        }
      }
      acl = Optional.of(List.copyOf(entries));
    }
    Optional<Boolean> inheritAcl = Optional.empty();
    JsonNode inheritNode = attributes.get("inherit_acl");
    if (inheritNode != null && !inheritNode.isNull()) {
      if (!inheritNode.isBoolean()) {
        throw invalid(path, "inherit_acl", "expected %true or %false, got " + inheritNode);
      }
      inheritAcl = Optional.of(inheritNode.asBoolean());
    }
    return new AclAttributes(acl, inheritAcl);
  }

  private static CommandError invalid(YPath path, String attribute, String detail) {
    return CommandError.badRequest(
        "Invalid attribute "
            + attribute
            + " for "
            + path
            + ": "
            + detail
            + " (an ACE is {action=allow|deny; subjects=[user or group, ...];"
            + " permissions=[write, ...]})");
  }

  /** Sets what was given on the node just created at {@code path}. */
  void applyTo(InMemoryCluster cluster, YPath path) {
    acl.ifPresent(entries -> cluster.setAcl(path, entries));
    inheritAcl.ifPresent(inherit -> cluster.setInheritAcl(path, inherit));
  }

  /** The node's own {@code acl}, as {@code get @acl} answers it. */
  static ArrayNode toJson(List<AccessControlEntry> acl) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (AccessControlEntry ace : acl) {
      out.add(JSON.valueToTree(ace.toAttribute()));
    }
    return out;
  }
}
