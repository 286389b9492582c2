package io.ytstream.inmemory;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.TransactionId;
import java.util.Optional;

/**
 * A permission check that failed: AuthorizationError (901) with the message the permission cache
 * builds from the master's answer ({@code TCheckPermissionResult::ToError}, {@code
 * yt/yt/client/api/security_client.cpp}): {@code Access denied for user "U": "P" permission is
 * denied for "S" by ACE at node //x} when an entry denied it, {@code ... is not allowed by any
 * matching ACE} when none allowed it; attributes {@code user}, {@code permission}, and {@code
 * denied_by}/{@code denied_for} when a deny entry decided.
 */
public final class AccessDeniedException extends YtException {

  private static final long serialVersionUID = 1L;

  private final String user;
  private final String permission;
  private final YPath path;
  private final transient Optional<TransactionId> transaction;
  private final transient Optional<String> deniedFor;
  private final transient Optional<YPath> deniedAt;

  AccessDeniedException(
      String user,
      String permission,
      YPath path,
      Optional<String> deniedFor,
      Optional<YPath> deniedAt,
      Optional<TransactionId> transaction) {
    super(YtErrorCode.AUTHORIZATION_ERROR, message(user, permission, deniedFor, deniedAt));
    this.user = user;
    this.permission = permission;
    this.path = path;
    this.transaction = transaction;
    this.deniedFor = deniedFor;
    this.deniedAt = deniedAt;
  }

  private static String message(
      String user, String permission, Optional<String> deniedFor, Optional<YPath> deniedAt) {
    String head = "Access denied for user \"" + user + "\": \"" + permission + "\" permission ";
    if (deniedFor.isPresent() && deniedAt.isPresent()) {
      return head
          + "is denied for \""
          + deniedFor.get()
          + "\" by ACE at node "
          + deniedAt.get().value();
    }
    return head + "is not allowed by any matching ACE";
  }

  /** The message without the {@code (code 901)} suffix, as the server words it. */
  public String serverMessage() {
    String message = getMessage();
    String suffix = " (code " + code() + ")";
    return message.endsWith(suffix)
        ? message.substring(0, message.length() - suffix.length())
        : message;
  }

  /** The user the check ran for (the error attribute {@code user}). */
  public String user() {
    return user;
  }

  /** The permission checked (the error attribute {@code permission}), e.g. {@code write}. */
  public String permission() {
    return permission;
  }

  /** The node the permission was checked on. */
  public YPath path() {
    return path;
  }

  /**
   * The error attribute {@code denied_by}: the id of the object whose deny entry decided, present
   * only then ({@code TCheckPermissionResult::ToError} sets it from {@code ObjectId}). The
   * in-memory tree keeps no object ids, so this is an id in the server's GUID form made from the
   * node's path: the same node always gives the same id.
   */
  public Optional<String> deniedBy() {
    return deniedAt.map(p -> objectId("node", p.value()));
  }

  /**
   * The error attribute {@code denied_for}: the id of the subject (user or group) the deny entry
   * named, present only when a deny entry decided ({@code ToError}, {@code SubjectId}); made from
   * the subject's name as {@link #deniedBy} is from a path.
   */
  public Optional<String> deniedFor() {
    return deniedAt.isPresent() ? deniedFor.map(s -> objectId("subject", s)) : Optional.empty();
  }

  private static String objectId(String kind, String name) {
    byte[] hash;
    try {
      hash =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest((kind + ":" + name).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    StringBuilder id = new StringBuilder();
    for (int part = 0; part < 4; part++) {
      int value =
          ((hash[part * 4] & 0xff) << 24)
              | ((hash[part * 4 + 1] & 0xff) << 16)
              | ((hash[part * 4 + 2] & 0xff) << 8)
              | (hash[part * 4 + 3] & 0xff);
      if (part > 0) {
        id.append('-');
      }
      id.append(Integer.toHexString(value));
    }
    return id.toString();
  }

  /** The tablet transaction whose commit the check failed, when it ran at a commit. */
  public Optional<TransactionId> transaction() {
    return transaction;
  }
}
