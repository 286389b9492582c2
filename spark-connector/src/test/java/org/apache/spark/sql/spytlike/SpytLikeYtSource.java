package org.apache.spark.sql.spytlike;

import io.ytstream.connector.clash.RefusingYtSource;

/**
 * A provider of {@code yt} in a package under {@code org.apache.spark}, where SPYT keeps its own
 * ({@code org.apache.spark.sql.v2.YtDataSourceV2}, {@code org.apache.spark.sql.vectorized
 * .YtFileFormat}): Spark's lookup treats such a provider as its own and prefers it.
 */
public final class SpytLikeYtSource extends RefusingYtSource {}
