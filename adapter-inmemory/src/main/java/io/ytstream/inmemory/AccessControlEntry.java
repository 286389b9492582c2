package io.ytstream.inmemory;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One entry of a node's {@code acl} attribute, in the server's shape {@code {action=allow|deny;
 * subjects=[...]; permissions=[...]; inheritance_mode=...}}. Permission names are those of {@code
 * yt/yt/core/ytree/permission.h} ({@code EPermission}); {@code inheritance_mode} says at which
 * depths below the node the entry applies ({@code yt/yt/server/lib/security_server/helpers.cpp},
 * {@code GetInheritedInheritanceMode}).
 *
 * @param subjects user names, or the groups every user belongs to ({@code everyone}, {@code users})
 */
public record AccessControlEntry(
    Action action, List<String> subjects, Set<String> permissions, InheritanceMode inheritance) {

  /** The permissions {@code EPermission} defines; an ACE naming another one is refused. */
  public static final Set<String> KNOWN_PERMISSIONS =
      Set.of(
          "read",
          "full_read",
          "write",
          "use",
          "administer",
          "create",
          "remove",
          "mount",
          "manage",
          "modify_children",
          "register_queue_consumer");

  /** {@code ESecurityAction}: a matching deny wins over any allow. */
  public enum Action {
    ALLOW,
    DENY;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** {@code EAceInheritanceMode}: where below its node an entry still applies. */
  public enum InheritanceMode {
    OBJECT_AND_DESCENDANTS,
    OBJECT_ONLY,
    DESCENDANTS_ONLY,
    IMMEDIATE_DESCENDANTS_ONLY;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Whether an entry of this mode on a node applies {@code depth} levels below it (0: itself).
     */
    boolean appliesAt(int depth) {
      return switch (this) {
        case OBJECT_AND_DESCENDANTS -> true;
        case OBJECT_ONLY -> depth == 0;
        case DESCENDANTS_ONLY -> depth > 0;
        case IMMEDIATE_DESCENDANTS_ONLY -> depth == 1;
      };
    }
  }

  public AccessControlEntry {
    if (subjects.isEmpty()) {
      throw new IllegalArgumentException("an ACE needs at least one subject");
    }
    if (permissions.isEmpty()) {
      throw new IllegalArgumentException("an ACE needs at least one permission");
    }
    for (String permission : permissions) {
      if (!KNOWN_PERMISSIONS.contains(permission)) {
        throw new IllegalArgumentException(
            "unknown permission \""
                + permission
                + "\" in an ACE; known permissions: "
                + new TreeSet<>(KNOWN_PERMISSIONS));
      }
    }
    subjects = List.copyOf(subjects);
    permissions = Set.copyOf(permissions);
  }

  /** An entry that allows {@code permissions} to {@code subjects} here and below. */
  public static AccessControlEntry allow(List<String> subjects, String... permissions) {
    return new AccessControlEntry(
        Action.ALLOW, subjects, Set.of(permissions), InheritanceMode.OBJECT_AND_DESCENDANTS);
  }

  /** An entry that denies {@code permissions} to {@code subjects} here and below. */
  public static AccessControlEntry deny(List<String> subjects, String... permissions) {
    return new AccessControlEntry(
        Action.DENY, subjects, Set.of(permissions), InheritanceMode.OBJECT_AND_DESCENDANTS);
  }

  /**
   * An entry from the attribute's YSON shape: {@code action} and {@code subjects} and {@code
   * permissions} (lists of strings) are required, {@code inheritance_mode} is optional. Unknown
   * keys are refused, so a misspelt key does not silently widen access.
   */
  public static AccessControlEntry fromAttribute(Map<?, ?> ace) {
    for (Object key : ace.keySet()) {
      if (!Set.of("action", "subjects", "permissions", "inheritance_mode").contains(key)) {
        throw new IllegalArgumentException(
            "unknown key \""
                + key
                + "\" in ACE "
                + ace
                + "; an ACE has action, subjects, permissions and inheritance_mode");
      }
    }
    Object action = ace.get("action");
    Action parsedAction;
    if ("allow".equals(action)) {
      parsedAction = Action.ALLOW;
    } else if ("deny".equals(action)) {
      parsedAction = Action.DENY;
    } else {
      throw new IllegalArgumentException(
          "ACE " + ace + " has action " + action + "; use \"allow\" or \"deny\"");
    }
    InheritanceMode mode = InheritanceMode.OBJECT_AND_DESCENDANTS;
    Object inheritance = ace.get("inheritance_mode");
    if (inheritance != null) {
      mode = null;
      for (InheritanceMode candidate : InheritanceMode.values()) {
        if (candidate.wireName().equals(inheritance)) {
          mode = candidate;
        }
      }
      if (mode == null) {
        throw new IllegalArgumentException(
            "ACE "
                + ace
                + " has inheritance_mode "
                + inheritance
                + "; use object_and_descendants, object_only, descendants_only or"
                + " immediate_descendants_only");
      }
    }
    return new AccessControlEntry(
        parsedAction, strings(ace, "subjects"), new TreeSet<>(strings(ace, "permissions")), mode);
  }

  /** The attribute's YSON shape, as {@code get @acl} answers it. */
  public Map<String, Object> toAttribute() {
    return Map.of(
        "action",
        action.wireName(),
        "subjects",
        subjects,
        "permissions",
        List.copyOf(new TreeSet<>(permissions)),
        "inheritance_mode",
        inheritance.wireName());
  }

  private static List<String> strings(Map<?, ?> ace, String key) {
    if (!(ace.get(key) instanceof List<?> list)) {
      throw new IllegalArgumentException(
          "ACE " + ace + " needs " + key + " as a list of strings, got " + ace.get(key));
    }
    for (Object item : list) {
      if (!(item instanceof String)) {
        throw new IllegalArgumentException(
            "ACE " + ace + " needs " + key + " as a list of strings, got " + item);
      }
    }
    @SuppressWarnings("unchecked")
    List<String> strings = (List<String>) list;
    return strings;
  }
}
