package io.ytstream.ytsaurus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where the token comes from, first match wins: the setting {@code yt.token} (Spark passes {@code
 * spark.hadoop.yt.token} as {@code yt.token}; both keys are read), the environment variable {@code
 * YT_TOKEN}, then the file {@code ~/.yt/token}. No token at all is allowed (an open local cluster
 * or the emulator without {@code --token}).
 */
final class TokenSource {

  static final String SETTING = "yt.token";
  static final String SPARK_SETTING = "spark.hadoop.yt.token";
  static final String ENVIRONMENT_VARIABLE = "YT_TOKEN";

  private TokenSource() {}

  static Optional<OAuthToken> resolve(
      Map<String, String> settings, Function<String, String> environment, Path homeDirectory) {
    for (String key : new String[] {SETTING, SPARK_SETTING}) {
      String value = settings.get(key);
      if (value != null && !value.isBlank()) {
        return Optional.of(OAuthToken.of(value));
      }
    }
    String fromEnvironment = environment.apply(ENVIRONMENT_VARIABLE);
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return Optional.of(OAuthToken.of(fromEnvironment));
    }
    if (homeDirectory != null) {
      Path file = homeDirectory.resolve(".yt").resolve("token");
      if (Files.isRegularFile(file)) {
        try {
          String content = Files.readString(file, StandardCharsets.UTF_8);
          if (!content.isBlank()) {
            return Optional.of(OAuthToken.of(content));
          }
        } catch (IOException e) {
          // The message names the file only, never its content.
          throw new UncheckedIOException("cannot read the YTsaurus token file " + file, e);
        }
      }
    }
    return Optional.empty();
  }
}
