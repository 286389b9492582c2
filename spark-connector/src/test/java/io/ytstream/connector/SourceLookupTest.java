package io.ytstream.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.connector.clash.AnotherYtSource;
import io.ytstream.connector.clash.RefusingYtSource;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.execution.datasources.DataSource$;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.spytlike.SpytLikeYtSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Spark 4.2's {@code DataSource.lookupDataSource} makes of {@code format("yt")} when another
 * jar registers {@code yt} beside ytstream (as SPYT's jars do), and that the full class name of our
 * provider always finds it. The lookup runs with the thread's context class loader, as in a job.
 */
class SourceLookupTest {

  private static final String OURS = "io.ytstream.spark.YtDataSource";

  @TempDir Path dir;

  @Test
  void aloneTheShortNameIsOurs() throws Exception {
    assertEquals(OURS, lookUp("yt", null).getName());
  }

  @Test
  void anotherProviderOutsideSparksPackagesMakesTheShortNameAnError() throws Exception {
    Path jar = JobJars.registering(AnotherYtSource.class, dir);
    AnalysisException e = assertThrows(AnalysisException.class, () -> lookUp("yt", jar));
    assertTrue(
        e.getMessage()
            .contains(
                "Multiple sources found for yt ("
                    + AnotherYtSource.class.getName()
                    + ", "
                    + OURS
                    + "), please specify the fully qualified class name"),
        e.getMessage());
  }

  /** SPYT's providers are such: Spark then takes theirs for "yt", without an error. */
  @Test
  void aProviderInASparkPackageTakesTheShortName() throws Exception {
    Path jar = JobJars.registering(SpytLikeYtSource.class, dir);
    assertEquals(SpytLikeYtSource.class.getName(), lookUp("yt", jar).getName());
  }

  @Test
  void theClassNameFindsOursBesideEither() throws Exception {
    for (Class<? extends RefusingYtSource> other :
        java.util.List.of(AnotherYtSource.class, SpytLikeYtSource.class)) {
      assertEquals(OURS, lookUp(OURS, JobJars.registering(other, dir)).getName());
    }
  }

  /** {@code lookupDataSource(name)} with {@code jar} (when given) added to the context loader. */
  private static Class<?> lookUp(String name, Path jar) throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    URL[] urls = jar == null ? new URL[0] : new URL[] {jar.toUri().toURL()};
    try (URLClassLoader loader = new URLClassLoader(urls, previous)) {
      thread.setContextClassLoader(loader);
      return DataSource$.MODULE$.lookupDataSource(name, new SQLConf());
    } finally {
      thread.setContextClassLoader(previous);
    }
  }
}
