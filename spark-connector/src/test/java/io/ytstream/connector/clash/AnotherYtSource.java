package io.ytstream.connector.clash;

/** A provider of {@code yt} outside Spark's own packages, as most third-party connectors are. */
public final class AnotherYtSource extends RefusingYtSource {}
