package io.ytstream.core.error;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * An error reported by a YTsaurus cluster (real, emulated or in-memory). {@link #codes()} holds the
 * top-level code and every code found in the inner errors, because the top-level code is often a
 * generic wrapper (1) and decisions must look inside.
 */
public class YtException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int code;
  private final Set<Integer> codes;

  public YtException(int code, String message) {
    this(code, message, List.of(), null);
  }

  public YtException(int code, String message, List<Integer> innerCodes, Throwable cause) {
    super(message + " (code " + code + ")", cause);
    this.code = code;
    LinkedHashSet<Integer> all = new LinkedHashSet<>();
    all.add(code);
    all.addAll(innerCodes);
    this.codes = Collections.unmodifiableSet(all);
  }

  /** The top-level code. */
  public int code() {
    return code;
  }

  /** The top-level code and all inner codes, outermost first. */
  public Set<Integer> codes() {
    return codes;
  }

  public boolean hasCode(int wanted) {
    return codes.contains(wanted);
  }
}
