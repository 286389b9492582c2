package io.ytstream.connector.clash;

import org.apache.spark.sql.sources.DataSourceRegister;

/**
 * Another connector that registers the short name {@code yt}, as SPYT's jars do: the test puts it
 * on the class path beside ours to show what Spark's lookup does then.
 */
public final class AnotherYtSource implements DataSourceRegister {

  @Override
  public String shortName() {
    return "yt";
  }
}
