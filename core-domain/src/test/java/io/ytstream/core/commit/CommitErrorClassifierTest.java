package io.ytstream.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class CommitErrorClassifierTest {

  /** The expected class of every code YtErrorCode names. */
  private static final Map<String, CommitOutcome> EXPECTED = new LinkedHashMap<>();

  static {
    EXPECTED.put("GENERIC", CommitOutcome.UNKNOWN);
    EXPECTED.put("RESOLVE_ERROR", CommitOutcome.FAILED);
    EXPECTED.put("ALREADY_EXISTS", CommitOutcome.UNKNOWN);
    EXPECTED.put("AUTHENTICATION_ERROR", CommitOutcome.FAILED);
    EXPECTED.put("AUTHORIZATION_ERROR", CommitOutcome.FAILED);
    EXPECTED.put("TRANSACTION_LOCK_CONFLICT", CommitOutcome.RETRY_LATER);
    EXPECTED.put("NO_SUCH_TABLET", CommitOutcome.RETRY_LATER);
    EXPECTED.put("TABLET_NOT_MOUNTED", CommitOutcome.RETRY_LATER);
    EXPECTED.put("INVALID_MOUNT_REVISION", CommitOutcome.RETRY_LATER);
    EXPECTED.put("INVALID_TABLET_STATE", CommitOutcome.RETRY_LATER);
    EXPECTED.put("TABLE_MOUNT_INFO_NOT_READY", CommitOutcome.RETRY_LATER);
    EXPECTED.put("ROW_IS_BLOCKED", CommitOutcome.RETRY_LATER);
    EXPECTED.put("TOO_MANY_ROWS_IN_TRANSACTION", CommitOutcome.FAILED);
    EXPECTED.put("REQUEST_THROTTLED", CommitOutcome.RETRY_LATER);
    EXPECTED.put("CONSUMER_OFFSET_CONFLICT", CommitOutcome.FENCED);
    EXPECTED.put("NO_SUCH_TRANSACTION", CommitOutcome.RETRY_LATER);
    EXPECTED.put("INVALID_TRANSACTION_STATE", CommitOutcome.UNKNOWN);
    EXPECTED.put("PARTICIPANT_FAILED_TO_PREPARE", CommitOutcome.RETRY_LATER);
    EXPECTED.put("SOME_PARTICIPANTS_ARE_DOWN", CommitOutcome.RETRY_LATER);
    EXPECTED.put("HTTP_UNAUTHORIZED", CommitOutcome.FAILED);
    EXPECTED.put("HTTP_TOO_MANY_REQUESTS", CommitOutcome.RETRY_LATER);
    EXPECTED.put("HTTP_SERVICE_UNAVAILABLE", CommitOutcome.RETRY_LATER);
  }

  /** Codes that YtErrorCode does not name. */
  private static final int[] UNNAMED = {0, -1, 2, 502, 1703, 3101, 11001, 12345, 500_000};

  /** Every public constant of YtErrorCode, by name. */
  private static Map<String, Integer> namedCodes() throws IllegalAccessException {
    Map<String, Integer> codes = new LinkedHashMap<>();
    for (Field f : YtErrorCode.class.getDeclaredFields()) {
      int m = f.getModifiers();
      if (Modifier.isPublic(m) && Modifier.isStatic(m) && f.getType() == int.class) {
        codes.put(f.getName(), f.getInt(null));
      }
    }
    return codes;
  }

  /**
   * Which rule decides: lower wins. An offset conflict fences even when wrapped in a retriable
   * error; "invalid transaction state" is unknown even next to a permanent error.
   */
  private static int rank(int code, Map<Integer, CommitOutcome> byCode) {
    if (code == YtErrorCode.CONSUMER_OFFSET_CONFLICT) {
      return 0;
    }
    if (code == YtErrorCode.INVALID_TRANSACTION_STATE) {
      return 1;
    }
    CommitOutcome o = byCode.getOrDefault(code, CommitOutcome.UNKNOWN);
    return switch (o) {
      case FAILED -> 2;
      case RETRY_LATER -> 3;
      default -> 4;
    };
  }

  private static CommitOutcome classOfRank(int rank) {
    return switch (rank) {
      case 0 -> CommitOutcome.FENCED;
      case 2 -> CommitOutcome.FAILED;
      case 3 -> CommitOutcome.RETRY_LATER;
      default -> CommitOutcome.UNKNOWN;
    };
  }

  @Test
  void everyNamedCodeHasAnExpectedClass() throws Exception {
    Map<String, Integer> named = namedCodes();
    assertEquals(EXPECTED.keySet(), named.keySet(), "a new YtErrorCode needs a decision here");
  }

  @Test
  void everyCodeAloneAndWrapped() throws Exception {
    for (Map.Entry<String, Integer> e : namedCodes().entrySet()) {
      int code = e.getValue();
      CommitOutcome expected = EXPECTED.get(e.getKey());
      String ctx = e.getKey() + " (" + code + ")";
      assertEquals(expected, CommitErrorClassifier.classify(new YtException(code, "x")), ctx);
      assertEquals(
          expected,
          CommitErrorClassifier.classify(
              new YtException(YtErrorCode.GENERIC, "wrapped", List.of(code), null)),
          ctx + " inside code 1");
      assertEquals(
          expected,
          CommitErrorClassifier.classify(
              new YtException(
                  YtErrorCode.GENERIC, "deep", List.of(YtErrorCode.GENERIC, code), null)),
          ctx + " two levels down");
    }
    for (int code : UNNAMED) {
      assertEquals(
          CommitOutcome.UNKNOWN, CommitErrorClassifier.classify(new YtException(code, "x")));
      assertEquals(
          CommitOutcome.UNKNOWN,
          CommitErrorClassifier.classify(new YtException(1, "x", List.of(code), null)));
    }
  }

  @Test
  void everyPairOfCodesMostSpecificWins() throws Exception {
    Map<Integer, CommitOutcome> byCode = new LinkedHashMap<>();
    namedCodes().forEach((name, code) -> byCode.put(code, EXPECTED.get(name)));
    List<Integer> codes = new ArrayList<>(byCode.keySet());
    for (int u : UNNAMED) {
      codes.add(u);
    }
    for (int a : codes) {
      for (int b : codes) {
        CommitOutcome expected = classOfRank(Math.min(rank(a, byCode), rank(b, byCode)));
        assertEquals(
            expected,
            CommitErrorClassifier.classify(new YtException(a, "x", List.of(b), null)),
            a + " with inner " + b);
        assertEquals(
            expected,
            CommitErrorClassifier.classify(new YtException(1, "x", List.of(b, a), null)),
            "1 with inner " + b + ", " + a);
      }
    }
  }

  @Test
  void documentedExamples() {
    assertEquals(
        CommitOutcome.FENCED,
        CommitErrorClassifier.classify(new YtException(1, "x", List.of(3100), null)));
    assertEquals(
        CommitOutcome.FENCED,
        CommitErrorClassifier.classify(new YtException(1700, "x", List.of(3100), null)));
    assertEquals(
        CommitOutcome.UNKNOWN,
        CommitErrorClassifier.classify(new YtException(1, "x", List.of(11003, 1717), null)));
    assertEquals(
        CommitOutcome.FAILED,
        CommitErrorClassifier.classify(new YtException(1725, "x", List.of(1717), null)));
    assertEquals(
        CommitOutcome.RETRY_LATER,
        CommitErrorClassifier.classify(new YtException(503, "x", List.of(501), null)));
  }

  @Test
  void nullMeansCommitted() {
    assertEquals(CommitOutcome.COMMITTED, CommitErrorClassifier.classify(null));
  }

  @Test
  void nonYtErrorsAreUnknown() {
    List<Throwable> errors =
        List.of(
            new CommitOutcomeUnknownException("timeout", null),
            new CommitOutcomeUnknownException(
                "lost", new YtException(YtErrorCode.CONSUMER_OFFSET_CONFLICT, "x")),
            new RuntimeException("reset"),
            new UncheckedIOException(new IOException("connection reset")),
            new IOException("broken pipe"),
            new HttpTimeoutException("timed out"),
            new TimeoutException(),
            new IllegalStateException(),
            new OutOfMemoryError(),
            // A cause chain is not searched: only a YtException's own codes are.
            new RuntimeException(new YtException(YtErrorCode.TRANSACTION_LOCK_CONFLICT, "x")));
    for (Throwable t : errors) {
      assertEquals(CommitOutcome.UNKNOWN, CommitErrorClassifier.classify(t), t.toString());
    }
  }

  @Test
  void everyOutcomeIsReachable() {
    List<CommitOutcome> seen = new ArrayList<>();
    seen.add(CommitErrorClassifier.classify(null));
    seen.add(CommitErrorClassifier.classify(new YtException(1700, "x")));
    seen.add(CommitErrorClassifier.classify(new YtException(3100, "x")));
    seen.add(CommitErrorClassifier.classify(new YtException(12345, "x")));
    seen.add(CommitErrorClassifier.classify(new YtException(1717, "x")));
    assertEquals(List.of(CommitOutcome.values()), seen);
    assertTrue(CommitOutcome.valueOf("FENCED") == CommitOutcome.FENCED);
  }
}
