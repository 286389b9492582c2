package io.ytstream.connector;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The Spark line whose jars a {@link SparkClusterRuns} class's standalone cluster runs: {@code
 * current} (the version the jar is built against) when absent, or {@code previous} / {@code next},
 * as the build names them ({@code spark.<line>.version/.classpath}, see {@link
 * SparkDistribution#fromBuild}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface OnSpark {
  String value();
}
