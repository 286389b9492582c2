package io.ytstream.inmemory;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.YPath;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The permission checker's rules ({@code yt/yt/server/lib/security_server/permission_checker-inl.h}
 * and {@code helpers.cpp}), on a tree {@code //a/b/c}.
 */
class AccessControlTest {

  private static final YPath A = YPath.of("//a");
  private static final YPath B = YPath.of("//a/b");
  private static final YPath C = YPath.of("//a/b/c");

  private final CypressTree tree = new CypressTree(new ManualClock());
  private final AccessControl control = new AccessControl();

  AccessControlTest() {
    tree.createMapNodes(C);
  }

  private void acl(YPath path, AccessControlEntry... entries) {
    tree.resolve(path).setAcl(List.of(entries));
  }

  private static AccessControlEntry entry(
      AccessControlEntry.Action action, String subject, AccessControlEntry.InheritanceMode mode) {
    return new AccessControlEntry(action, List.of(subject), Set.of("write"), mode);
  }

  private boolean allowed(String user, YPath path) {
    try {
      control.check(tree, user, path, "write", Optional.empty());
      return true;
    } catch (AccessDeniedException e) {
      assertEquals(YtErrorCode.AUTHORIZATION_ERROR, e.code());
      return false;
    }
  }

  @Test
  void anAllowOnAnAncestorCoversDescendantsAndOnlyTheNamedPermission() {
    acl(A, AccessControlEntry.allow(List.of("alice"), "write"));

    assertTrue(allowed("alice", C));
    assertEquals(false, allowed("bob", C));
    assertThrows(
        AccessDeniedException.class,
        () -> control.check(tree, "alice", C, "read", Optional.empty()));
  }

  @Test
  void inheritanceModesApplyAtTheirDepthsOnly() {
    acl(
        A,
        entry(AccessControlEntry.Action.ALLOW, "o", AccessControlEntry.InheritanceMode.OBJECT_ONLY),
        entry(
            AccessControlEntry.Action.ALLOW,
            "d",
            AccessControlEntry.InheritanceMode.DESCENDANTS_ONLY),
        entry(
            AccessControlEntry.Action.ALLOW,
            "i",
            AccessControlEntry.InheritanceMode.IMMEDIATE_DESCENDANTS_ONLY));

    assertEquals(
        List.of(true, false, false), List.of(allowed("o", A), allowed("o", B), allowed("o", C)));
    assertEquals(
        List.of(false, true, true), List.of(allowed("d", A), allowed("d", B), allowed("d", C)));
    assertEquals(
        List.of(false, true, false), List.of(allowed("i", A), allowed("i", B), allowed("i", C)));
  }

  @Test
  void aDenyAnywhereWinsAndIsReportedWhereItSits() {
    acl(A, AccessControlEntry.deny(List.of("alice"), "write"));
    acl(C, AccessControlEntry.allow(List.of("alice"), "write"));

    AccessDeniedException denied =
        assertThrows(
            AccessDeniedException.class,
            () -> control.check(tree, "alice", C, "write", Optional.empty()));

    assertEquals(
        "Access denied for user \"alice\": \"write\" permission is denied for \"alice\" by ACE at"
            + " node //a",
        denied.serverMessage());
    assertEquals(C, denied.path());
  }

  @Test
  void noMatchingEntryIsNotAllowedByAnyMatchingAce() {
    AccessDeniedException denied =
        assertThrows(
            AccessDeniedException.class,
            () -> control.check(tree, "bob", B, "write", Optional.empty()));

    assertEquals(
        "Access denied for user \"bob\": \"write\" permission is not allowed by any matching ACE",
        denied.serverMessage());
    assertEquals("bob", denied.user());
    assertEquals("write", denied.permission());
  }

  @Test
  void inheritAclFalseCutsTheAncestorsOff() {
    acl(A, AccessControlEntry.allow(List.of("alice"), "write"));
    tree.resolve(B).setInheritAcl(false);

    assertEquals(false, allowed("alice", C));
    assertTrue(allowed("alice", A));
  }

  @Test
  void everyoneIncludesGuestAndUsersDoesNot() {
    acl(A, AccessControlEntry.allow(List.of("users"), "write"));
    acl(B, AccessControlEntry.allow(List.of("everyone"), "write"));

    assertEquals(false, allowed("guest", A));
    assertTrue(allowed("guest", B));
    assertTrue(allowed("carol", A));
  }

  @Test
  void superusersPassEvenADeny() {
    acl(A, AccessControlEntry.deny(List.of("everyone"), "write"));
    control.addSuperuser("admin");

    assertTrue(allowed(AccessControl.ROOT, C));
    assertTrue(allowed("admin", C));
    assertEquals(false, allowed("alice", C));
  }

  @Test
  void anEntryFromItsAttributeShape() {
    AccessControlEntry ace =
        AccessControlEntry.fromAttribute(
            Map.of(
                "action",
                "deny",
                "subjects",
                List.of("bob"),
                "permissions",
                List.of("write", "read"),
                "inheritance_mode",
                "object_only"));

    assertEquals(AccessControlEntry.Action.DENY, ace.action());
    assertEquals(Set.of("read", "write"), ace.permissions());
    assertEquals(AccessControlEntry.InheritanceMode.OBJECT_ONLY, ace.inheritance());
    assertEquals(
        Map.of(
            "action",
            "deny",
            "subjects",
            List.of("bob"),
            "permissions",
            List.of("read", "write"),
            "inheritance_mode",
            "object_only"),
        ace.toAttribute());
  }

  @Test
  void malformedEntriesAreRefusedWithWhatToWrite() {
    Map<String, Object> base =
        Map.of("action", "allow", "subjects", List.of("bob"), "permissions", List.of("write"));
    assertDoesNotThrow(() -> AccessControlEntry.fromAttribute(base));

    String action =
        refused(
            Map.of(
                "action", "permit", "subjects", List.of("bob"), "permissions", List.of("write")));
    String permission =
        refused(
            Map.of("action", "allow", "subjects", List.of("bob"), "permissions", List.of("wrte")));
    String key =
        refused(
            Map.of(
                "action",
                "allow",
                "subjects",
                List.of("bob"),
                "permissions",
                List.of("write"),
                "columns",
                List.of("x")));
    String subjects =
        refused(Map.of("action", "allow", "subjects", "bob", "permissions", List.of("write")));

    assertTrue(action.contains("\"allow\" or \"deny\""), action);
    assertTrue(permission.contains("wrte") && permission.contains("write"), permission);
    assertTrue(key.contains("columns"), key);
    assertTrue(subjects.contains("subjects as a list of strings"), subjects);
  }

  private static String refused(Map<String, Object> ace) {
    return assertThrows(IllegalArgumentException.class, () -> AccessControlEntry.fromAttribute(ace))
        .getMessage();
  }
}
