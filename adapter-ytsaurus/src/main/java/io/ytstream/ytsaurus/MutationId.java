package io.ytstream.ytsaurus;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A {@code mutation_id} as the server parses it: a YTsaurus GUID, exactly four {@code -}-separated
 * hex parts of at most 32 bits each ({@code library/cpp/yt/misc/guid.cpp}, {@code
 * TGuid::FromString}). A Java {@code UUID} has five parts and fails with "Error parsing GUID".
 */
final class MutationId {

  private MutationId() {}

  /** A random GUID in the server's own spelling (lowercase hex, no leading zeros). */
  static String random() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    StringBuilder id = new StringBuilder(35);
    for (int part = 0; part < 4; part++) {
      if (part > 0) {
        id.append('-');
      }
      int bits = random.nextInt();
      // All zeros is the null GUID, which means "no mutation id".
      id.append(Integer.toHexString(part == 0 && bits == 0 ? 1 : bits));
    }
    return id.toString();
  }

  /** Whether {@code text} parses as a GUID, with the rules of {@code TGuid::FromString}. */
  static boolean isGuid(String text) {
    String[] parts = text.split("-", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String part : parts) {
      if (part.isEmpty() || part.replaceFirst("^0+", "").length() > 8) {
        return false; // empty, or above 32 bits
      }
      for (int i = 0; i < part.length(); i++) {
        char c = part.charAt(i);
        boolean hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!hex) {
          return false;
        }
      }
    }
    return true;
  }
}
