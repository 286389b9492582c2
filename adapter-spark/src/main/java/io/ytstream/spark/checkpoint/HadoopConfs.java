package io.ytstream.spark.checkpoint;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/** The Hadoop configuration a query sees: the context's, plus session-level spark.hadoop.*. */
public final class HadoopConfs {

  private HadoopConfs() {}

  public static Configuration forSession(SparkSession spark) {
    Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
    Map<String, String> all = scala.jdk.javaapi.CollectionConverters.asJava(spark.conf().getAll());
    all.forEach(
        (k, v) -> {
          if (k.startsWith("spark.hadoop.") && v != null) {
            conf.set(k.substring("spark.hadoop.".length()), v);
          }
        });
    YtFileSystem.register(conf);
    return conf;
  }
}
