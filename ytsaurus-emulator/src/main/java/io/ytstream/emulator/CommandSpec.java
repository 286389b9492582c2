package io.ytstream.emulator;

/**
 * A v4 command the emulator serves: its HTTP method (PUT with an input stream, POST when volatile,
 * GET otherwise, {@code yt/yt/client/driver/driver.cpp}), input and output types as {@code GET
 * /api/v4} lists them, and the code that runs it.
 */
record CommandSpec(
    String name,
    String inputType,
    String outputType,
    boolean isVolatile,
    boolean isHeavy,
    Handler handler) {

  /** Runs a command: returns a JSON value, a {@link Tabular} result or {@code byte[]}. */
  @FunctionalInterface
  interface Handler {
    Object run(CommandRequest request);
  }

  /**
   * Rows for a tabular output, with the type_v3 types of the columns that have one; rows go while
   * the weight so far ({@link RowDataWeight}) is below {@code maxDataWeight}, so the row that
   * crosses it is the last one ({@code ordered_dynamic_store.cpp}). {@code responseParameters},
   * when not null, is sent as {@code X-YT-Response-Parameters}.
   */
  record Tabular(
      java.util.List<io.ytstream.ports.Row> rows,
      java.util.Map<String, io.ytstream.types.v3.YtType> types,
      long maxDataWeight,
      com.fasterxml.jackson.databind.JsonNode responseParameters) {

    /** Every row, whatever its weight. */
    Tabular(
        java.util.List<io.ytstream.ports.Row> rows,
        java.util.Map<String, io.ytstream.types.v3.YtType> types) {
      this(rows, types, Long.MAX_VALUE, null);
    }

    Tabular(
        java.util.List<io.ytstream.ports.Row> rows,
        java.util.Map<String, io.ytstream.types.v3.YtType> types,
        long maxDataWeight) {
      this(rows, types, maxDataWeight, null);
    }
  }

  String method() {
    if (!inputType.equals("null")) {
      return "PUT";
    }
    return isVolatile ? "POST" : "GET";
  }
}
