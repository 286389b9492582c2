package io.ytstream.spark.types;

import io.ytstream.spark.config.YtOptions;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * Whether composite (type_v3) columns keep their types in Spark, as SPYT documents it: the read
 * option {@code parsing_type_v3} (default: the session setting {@code
 * spark.yt.read.typeV3.enabled}, else false) and the write option {@code write_type_v3} (default:
 * {@code spark.yt.write.typeV3.enabled}, else false). An option beats the session setting. Without
 * them a composite column travels as binary YSON ({@code BinaryType}).
 */
public final class TypeV3Options {

  public static final String READ_SETTING = "spark.yt.read.typeV3.enabled";
  public static final String WRITE_SETTING = "spark.yt.write.typeV3.enabled";

  private TypeV3Options() {}

  /** The read flag, from the option or else the active session's setting. */
  public static boolean reading(YtOptions options) {
    return flag(options, YtOptions.PARSING_TYPE_V3, READ_SETTING, sessionSetting(READ_SETTING));
  }

  /** The write flag, from the option or else the active session's setting. */
  public static boolean writing(YtOptions options) {
    return flag(options, YtOptions.WRITE_TYPE_V3, WRITE_SETTING, sessionSetting(WRITE_SETTING));
  }

  public static boolean flag(
      YtOptions options, String option, String setting, Optional<String> sessionValue) {
    Optional<String> raw = options.get(option);
    if (raw.isPresent()) {
      return parse(raw.get(), "option " + option, ".option(\"" + option + "\", \"true\")");
    }
    if (sessionValue.isPresent() && !sessionValue.get().isBlank()) {
      return parse(
          sessionValue.get(), "setting " + setting, ".config(\"" + setting + "\", \"true\")");
    }
    return false;
  }

  private static boolean parse(String raw, String what, String example) {
    String v = raw.trim().toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return v.equals("true");
    }
    throw new IllegalArgumentException(
        what
            + " must be true or false, got '"
            + raw
            + "'. Use "
            + example
            + " to keep composite (type_v3) types as Spark structs, arrays and maps, or false"
            + " (the default) to have composite columns as binary YSON");
  }

  private static Optional<String> sessionSetting(String key) {
    Optional<SparkSession> spark =
        Optional.ofNullable(SparkSession.getActiveSession().getOrElse(() -> null));
    return spark.map(s -> s.conf().get(key, null));
  }
}
