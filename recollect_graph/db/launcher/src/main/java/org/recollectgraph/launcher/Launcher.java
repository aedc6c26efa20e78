package org.recollectgraph.launcher;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import inet.ipaddr.IPAddressString;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;

/**
 * Runs Neo4j Community embedded with a Bolt connector on a loopback address, and (optionally)
 * serves the Neo4j Browser static app from the classpath over the JDK's HTTP server.
 *
 * <p>Arguments: --home DIR --bolt-port N --http-port N (0: no Browser) --host ADDR
 * --page-cache-mb N --auth true|false --watch-pid PID (exit when that process exits)
 * --allow-csv-urls true|false (default false).
 *
 * <p>LOAD CSV reads {@code file:///} URLs from {@code <home>/import} only, and only with
 * --allow-csv-urls true; without it, file URLs are off and every outbound address (0.0.0.0/0 and
 * ::/0) is on the Cypher IP blocklist, so LOAD CSV (and procedures that load URLs) reach nothing.
 * With auth on, the password for user "neo4j" is read from the environment variable
 * RECOLLECT_NEO4J_PASSWORD (never from argv, which other users can read).
 *
 * <p>Prints one line "NEO4J_READY bolt=... http=... version=..." when the database answers,
 * or "NEO4J_FAILED reason" and exits 2. SIGTERM shuts the database down cleanly.
 */
public final class Launcher {
  private Launcher() {}

  public static void main(String[] args) {
    Map<String, String> opts = parse(args);
    Path home = Path.of(require(opts, "home")).toAbsolutePath();
    String host = opts.getOrDefault("host", "127.0.0.1");
    int boltPort = Integer.parseInt(opts.getOrDefault("bolt-port", "7687"));
    int httpPort = Integer.parseInt(opts.getOrDefault("http-port", "7474"));
    long pageCacheMb = Long.parseLong(opts.getOrDefault("page-cache-mb", "512"));
    boolean auth = Boolean.parseBoolean(opts.getOrDefault("auth", "true"));
    boolean csvUrls = Boolean.parseBoolean(opts.getOrDefault("allow-csv-urls", "false"));
    Path importDir = home.resolve("import");
    String password = System.getenv("RECOLLECT_NEO4J_PASSWORD");
    if (auth && (password == null || password.length() < 8)) {
      fail("auth is on but RECOLLECT_NEO4J_PASSWORD is missing or shorter than 8 characters");
    }

    DatabaseManagementService dbms;
    try {
      Files.createDirectories(importDir);
      List<IPAddressString> blocked =
          csvUrls
              ? List.of()
              : List.of(new IPAddressString("0.0.0.0/0"), new IPAddressString("::/0"));
      dbms =
          new DatabaseManagementServiceBuilder(home)
              .setConfig(BoltConnector.enabled, true)
              .setConfig(BoltConnector.listen_address, new SocketAddress(host, boltPort))
              .setConfig(BoltConnector.advertised_address, new SocketAddress(host, boltPort))
              .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
              .setConfig(GraphDatabaseSettings.auth_enabled, auth)
              .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMb))
              .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofMinutes(10))
              .setConfig(GraphDatabaseSettings.load_csv_file_url_root, importDir)
              .setConfig(GraphDatabaseSettings.allow_file_urls, csvUrls)
              .setConfig(GraphDatabaseInternalSettings.cypher_ip_blocklist, blocked)
              .build();
    } catch (Throwable e) {
      fail("database did not start: " + rootMessage(e));
      return;
    }
    final DatabaseManagementService service = dbms;
    final HttpServer[] http = new HttpServer[1];
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  if (http[0] != null) {
                    http[0].stop(0);
                  }
                  service.shutdown();
                  System.out.println("NEO4J_STOPPED");
                  System.out.flush();
                }));

    String version;
    try {
      GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
      version =
          db.executeTransactionally(
              "CALL dbms.components() YIELD versions RETURN versions[0] AS v",
              Map.of(),
              r -> String.valueOf(r.next().get("v")));
      if (auth) {
        setPassword(dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME), password);
      }
    } catch (Throwable e) {
      fail("database started but is not usable: " + rootMessage(e));
      return;
    }

    if (httpPort > 0) {
      try {
        http[0] = startBrowser(host, httpPort, boltPort, auth, version);
      } catch (IOException e) {
        fail("Browser port " + host + ":" + httpPort + " is not free: " + rootMessage(e));
      }
    }

    String watch = opts.get("watch-pid");
    if (watch != null) {
      ProcessHandle.of(Long.parseLong(watch))
          .ifPresentOrElse(
              ph -> ph.onExit().thenRun(() -> System.exit(0)), () -> System.exit(0));
    }

    System.out.println(
        "NEO4J_READY bolt=bolt://" + host + ":" + boltPort + " http=" + httpPort + " version=" + version);
    System.out.flush();
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void setPassword(GraphDatabaseService system, String password) {
    try {
      system.executeTransactionally(
          "ALTER USER neo4j SET PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", password));
    } catch (RuntimeException e) {
      // Setting the same password again is refused; that is the steady state, not an error.
      String msg = rootMessage(e).toLowerCase(Locale.ROOT);
      if (!msg.contains("same")) {
        throw e;
      }
    }
  }

  private static HttpServer startBrowser(
      String host, int httpPort, int boltPort, boolean auth, String version) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, httpPort), 16);
    String bolt = "bolt://" + host + ":" + boltPort;
    // Guides are fetched by the Browser app itself, which allows remote content from
    // "localhost" by default (not from 127.0.0.1), hence the host name in their URLs.
    String guides = "http://localhost:" + httpPort + "/guides/";
    String landing =
        "/browser/?connectURL="
            + (auth ? "neo4j%40" : "")
            + bolt.replace(":", "%3A").replace("/", "%2F")
            + "&preselectAuthMethod="
            + (auth ? "NATIVE" : "NO_AUTH") // Browser 5's names: NATIVE shows user + password
            + "&cmd=play&arg="
            + (guides + "recollect.html").replace(":", "%3A").replace("/", "%2F");
    server.createContext(
        "/",
        ex -> {
          try (ex) {
            String path = ex.getRequestURI().getPath();
            if ("OPTIONS".equals(ex.getRequestMethod()) && path.startsWith("/guides/")) {
              // CORS preflight: Browser fetches guides with no-cache headers from another origin.
              ex.getResponseHeaders().add("Access-Control-Allow-Origin", "*");
              ex.getResponseHeaders().add("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
              ex.getResponseHeaders().add("Access-Control-Allow-Headers", "*");
              ex.getResponseHeaders().add("Access-Control-Max-Age", "600");
              ex.sendResponseHeaders(204, -1);
            } else if (!"GET".equals(ex.getRequestMethod())
                && !"HEAD".equals(ex.getRequestMethod())) {
              send(ex, 405, "text/plain", "method not allowed".getBytes(StandardCharsets.UTF_8));
            } else if ("/".equals(path)) {
              String accept = String.valueOf(ex.getRequestHeaders().getFirst("Accept"));
              if (accept.contains("application/json")) {
                String json =
                    "{\"bolt_direct\":\""
                        + bolt
                        + "\",\"bolt_routing\":\"neo4j://"
                        + host
                        + ":"
                        + boltPort
                        + "\",\"neo4j_version\":\""
                        + version
                        + "\",\"neo4j_edition\":\"community\"}";
                send(ex, 200, "application/json", json.getBytes(StandardCharsets.UTF_8));
              } else {
                ex.getResponseHeaders().add("Location", landing);
                ex.sendResponseHeaders(302, -1);
              }
            } else if ("/browser".equals(path)) {
              ex.getResponseHeaders().add("Location", landing);
              ex.sendResponseHeaders(302, -1);
            } else if (path.startsWith("/browser/") && !path.contains("..")) {
              String rel = path.substring("/browser/".length());
              if (rel.isEmpty()) {
                rel = "index.html";
              }
              byte[] body = resource("browser/" + rel);
              if (body == null) {
                send(ex, 404, "text/plain", "not found".getBytes(StandardCharsets.UTF_8));
              } else {
                send(ex, 200, contentType(rel), body);
              }
            } else if (path.startsWith("/guides/") && !path.contains("..")) {
              sendGuide(ex, path.substring("/guides/".length()), guides);
            } else {
              send(ex, 404, "text/plain", "not found".getBytes(StandardCharsets.UTF_8));
            }
          }
        });
    server.start();
    return server;
  }

  /**
   * Serves recollect-graph's Browser guide and style from the classpath ({@code guides/}), with
   * {@code {{BASE}}} replaced by this server's guide base URL so that the guide's commands name
   * the right port. The Browser app (served from 127.0.0.1) fetches them from localhost, a
   * different origin, so they allow any origin (they are public, read-only files).
   */
  private static void sendGuide(HttpExchange ex, String rel, String guides) throws IOException {
    byte[] body = rel.isEmpty() ? null : resource("guides/" + rel);
    ex.getResponseHeaders().add("Access-Control-Allow-Origin", "*");
    ex.getResponseHeaders().add("Cache-Control", "no-cache");
    if (body == null) {
      send(ex, 404, "text/plain", "not found".getBytes(StandardCharsets.UTF_8));
      return;
    }
    String base = guides.substring(0, guides.length() - "/guides/".length());
    String text = new String(body, StandardCharsets.UTF_8).replace("{{BASE}}", base);
    String type = rel.endsWith(".grass") ? "text/plain; charset=utf-8" : contentType(rel);
    send(ex, 200, type, text.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = Launcher.class.getClassLoader().getResourceAsStream(name)) {
      return in == null ? null : in.readAllBytes();
    }
  }

  private static void send(HttpExchange ex, int status, String type, byte[] body)
      throws IOException {
    ex.getResponseHeaders().add("Content-Type", type);
    boolean head = "HEAD".equals(ex.getRequestMethod());
    ex.sendResponseHeaders(status, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static String contentType(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    Map<String, String> types =
        Map.ofEntries(
            Map.entry(".html", "text/html; charset=utf-8"),
            Map.entry(".js", "application/javascript"),
            Map.entry(".mjs", "application/javascript"),
            Map.entry(".css", "text/css"),
            Map.entry(".svg", "image/svg+xml"),
            Map.entry(".png", "image/png"),
            Map.entry(".jpg", "image/jpeg"),
            Map.entry(".ico", "image/x-icon"),
            Map.entry(".json", "application/json"),
            Map.entry(".woff", "font/woff"),
            Map.entry(".woff2", "font/woff2"),
            Map.entry(".ttf", "font/ttf"),
            Map.entry(".map", "application/json"),
            Map.entry(".txt", "text/plain"));
    for (Map.Entry<String, String> e : types.entrySet()) {
      if (n.endsWith(e.getKey())) {
        return e.getValue();
      }
    }
    return "application/octet-stream";
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || i + 1 >= args.length) {
        fail("bad argument: " + a);
      }
      out.put(a.substring(2), args[++i]);
    }
    return out;
  }

  private static String require(Map<String, String> opts, String key) {
    String v = opts.get(key);
    if (v == null) {
      fail("missing --" + key);
    }
    return v;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    StringBuilder sb = new StringBuilder(String.valueOf(t.getMessage()));
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
      sb.append(" | ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
    }
    return sb.toString().replace('\n', ' ');
  }

  private static void fail(String reason) {
    System.out.println("NEO4J_FAILED " + reason);
    System.out.flush();
    System.exit(2);
  }
}
