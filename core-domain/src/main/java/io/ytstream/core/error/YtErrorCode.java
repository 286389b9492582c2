package io.ytstream.core.error;

/**
 * YTsaurus error codes the protocol reacts to (see the HTTP API reference, section 2.3). Codes are
 * plain integers on the wire; these names make decisions readable.
 */
public final class YtErrorCode {

  /** Generic wrapper; look at inner errors. */
  public static final int GENERIC = 1;

  /** NYTree ResolveError: the node does not exist. */
  public static final int RESOLVE_ERROR = 500;

  /** NYTree AlreadyExists (from memory; UNVERIFIED in the reference). */
  public static final int ALREADY_EXISTS = 501;

  public static final int AUTHENTICATION_ERROR = 900;

  /** Also "Consumer X is not registered for queue Y". */
  public static final int AUTHORIZATION_ERROR = 901;

  public static final int TRANSACTION_LOCK_CONFLICT = 1700;
  public static final int NO_SUCH_TABLET = 1701;
  public static final int TABLET_NOT_MOUNTED = 1702;
  public static final int INVALID_MOUNT_REVISION = 1704;
  public static final int INVALID_TABLET_STATE = 1706;
  public static final int TABLE_MOUNT_INFO_NOT_READY = 1707;
  public static final int ROW_IS_BLOCKED = 1712;
  public static final int TOO_MANY_ROWS_IN_TRANSACTION = 1717;
  public static final int REQUEST_THROTTLED = 1725;

  public static final int CONSUMER_OFFSET_CONFLICT = 3100;

  public static final int NO_SUCH_TRANSACTION = 11000;
  public static final int INVALID_TRANSACTION_STATE = 11003;
  public static final int PARTICIPANT_FAILED_TO_PREPARE = 11004;
  public static final int SOME_PARTICIPANTS_ARE_DOWN = 11005;

  /** HTTP-level statuses that the adapters surface as codes of their own. */
  public static final int HTTP_UNAUTHORIZED = 401;

  public static final int HTTP_TOO_MANY_REQUESTS = 429;
  public static final int HTTP_SERVICE_UNAVAILABLE = 503;

  private YtErrorCode() {}
}
