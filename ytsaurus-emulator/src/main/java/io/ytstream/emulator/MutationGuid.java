package io.ytstream.emulator;

/**
 * A {@code mutation_id} as the server parses it ({@code library/cpp/yt/misc/guid.cpp}, {@code
 * TGuid::FromString}): exactly four {@code -}-separated parts, each a non-empty run of hex digits
 * whose value fits in 32 bits (leading zeros allowed). A Java {@code UUID} string has five parts
 * and fails. Two spellings of the same four numbers are the same id.
 *
 * @param canonical the id in lower-case hex without leading zeros, e.g. {@code 1-2-3-4}
 */
record MutationGuid(String canonical) {

  static MutationGuid parse(String text) {
    long[] parts = new long[4];
    int part = 0;
    long value = 0;
    boolean empty = true;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '-') {
        if (empty || part == 3) {
          throw invalid(text);
        }
        parts[part++] = value;
        value = 0;
        empty = true;
        continue;
      }
      int digit;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        digit = c - 'A' + 10;
      } else {
        throw invalid(text);
      }
      value = value * 16 + digit;
      empty = false;
      if (value > 0xFFFF_FFFFL) {
        throw invalid(text);
      }
    }
    if (part != 3 || empty) {
      throw invalid(text);
    }
    parts[3] = value;
    StringBuilder canonical = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      if (i > 0) {
        canonical.append('-');
      }
      canonical.append(Long.toHexString(parts[i]));
    }
    return new MutationGuid(canonical.toString());
  }

  private static CommandError invalid(String text) {
    return CommandError.badRequest("Error parsing GUID \"" + text + "\"");
  }
}
