package io.ytstream.inmemory;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.TransactionId;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who may do what to a node, as the master's permission checker decides it ({@code
 * yt/yt/server/lib/security_server/permission_checker-inl.h}, {@code TPermissionChecker}): the
 * entries of the node and then of each ancestor are matched in turn (stopping above a node with
 * {@code inherit_acl=%false}); an entry applies when its inheritance mode covers the depth, it
 * names the permission and one of its subjects is the user or a group the user is in. The first
 * matching deny decides at once (deny wins over every allow, wherever each sits); otherwise a
 * matching allow grants; with neither the access is denied ("not allowed by any matching ACE").
 * Superusers ({@code root} and those added) are never checked (the master's {@code IsSuperuser},
 * {@code security_manager.cpp}).
 *
 * <p>Groups: {@code everyone} holds every user, {@code users} every user but {@code guest}; other
 * groups and group membership are not modelled. Not thread-safe: the cluster calls it under its
 * lock.
 */
final class AccessControl {

  /** The built-in superuser; the in-memory cluster's ports act as it unless told otherwise. */
  static final String ROOT = "root";

  private final Set<String> superusers = new TreeSet<>(Set.of(ROOT));

  void addSuperuser(String user) {
    superusers.add(user);
  }

  boolean isSuperuser(String user) {
    return superusers.contains(user);
  }

  /**
   * Throws {@link AccessDeniedException} unless {@code user} has {@code permission} on the node at
   * {@code path}; {@code transaction} is the one whose commit runs the check, if any.
   */
  void check(
      CypressTree tree,
      String user,
      YPath path,
      String permission,
      Optional<TransactionId> transaction) {
    if (isSuperuser(user)) {
      return;
    }
    boolean allowed = false;
    YPath current = path;
    for (int depth = 0; ; depth++) {
      CypressNode node = tree.resolve(current);
      for (AccessControlEntry ace : node.acl()) {
        if (!ace.inheritance().appliesAt(depth) || !ace.permissions().contains(permission)) {
          continue;
        }
        Optional<String> subject = matchingSubject(ace, user);
        if (subject.isEmpty()) {
          continue;
        }
        if (ace.action() == AccessControlEntry.Action.DENY) {
          throw new AccessDeniedException(
              user, permission, path, subject, Optional.of(current), transaction);
        }
        allowed = true;
      }
      if (!node.inheritAcl() || current.value().equals("//")) {
        break;
      }
      current = CypressTree.parentPath(current);
    }
    if (!allowed) {
      throw new AccessDeniedException(
          user, permission, path, Optional.empty(), Optional.empty(), transaction);
    }
  }

  private static Optional<String> matchingSubject(AccessControlEntry ace, String user) {
    for (String subject : ace.subjects()) {
      if (subject.equals(user)
          || subject.equals("everyone")
          || (subject.equals("users") && !user.equals("guest"))) {
        return Optional.of(subject);
      }
    }
    return Optional.empty();
  }
}
