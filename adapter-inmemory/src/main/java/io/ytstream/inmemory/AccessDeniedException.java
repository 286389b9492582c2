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
 * matching ACE} when none allowed it.
 */
public final class AccessDeniedException extends YtException {

  private static final long serialVersionUID = 1L;

  private final String user;
  private final String permission;
  private final YPath path;
  private final transient Optional<TransactionId> transaction;

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

  /** The tablet transaction whose commit the check failed, when it ran at a commit. */
  public Optional<TransactionId> transaction() {
    return transaction;
  }
}
