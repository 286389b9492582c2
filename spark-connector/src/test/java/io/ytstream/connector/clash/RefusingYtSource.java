package io.ytstream.connector.clash;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Another connector's provider of the short name {@code yt}, for the tests of what Spark's lookup
 * does when two jars register it. When Spark picks it, it fails the query at {@code load()} with
 * its own class name, so the test sees which one was chosen.
 */
public abstract class RefusingYtSource implements DataSourceRegister, TableProvider {

  @Override
  public String shortName() {
    return "yt";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    throw chosen();
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    throw chosen();
  }

  private IllegalStateException chosen() {
    return new IllegalStateException(getClass().getName() + " was chosen for format(\"yt\")");
  }
}
