package apiserver

import (
	"fmt"
	"io"
	"net/url"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// etcdStartTimeout bounds the wait for a one-member etcd to elect itself.
const etcdStartTimeout = time.Minute

// startEtcd starts a one-member etcd that keeps its data in dir and serves
// clients on a loopback port chosen by the kernel. It returns the server
// and its client URL.
//
// Port 0 is passed to etcd itself rather than probing for a free port
// first: a probed port can be taken by another process before etcd binds
// it. The member never dials its peer URL, so that port need not be known.
func startEtcd(dir string, log io.Writer) (*embed.Etcd, string, error) {
	cfg := embed.NewConfig()
	cfg.Dir = dir
	// The data lives as long as the process: a crash loses nothing that
	// matters, so skip the fsyncs that dominate etcd's write latency.
	cfg.UnsafeNoFsync = true
	local := url.URL{Scheme: "http", Host: "127.0.0.1:0"}
	cfg.ListenClientUrls = []url.URL{local}
	cfg.AdvertiseClientUrls = []url.URL{local}
	cfg.ListenPeerUrls = []url.URL{local}
	cfg.AdvertisePeerUrls = []url.URL{local}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(errorLogger(log).Named("etcd"))
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("starting etcd: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, "", fmt.Errorf("etcd stopped while starting: %w", err)
	case <-time.After(etcdStartTimeout):
		e.Close()
		return nil, "", fmt.Errorf("etcd not ready after %s", etcdStartTimeout)
	}
	if len(e.Clients) == 0 {
		e.Close()
		return nil, "", fmt.Errorf("etcd serves no client listener")
	}
	return e, "http://" + e.Clients[0].Addr().String(), nil
}

// errorLogger writes errors, and nothing less severe, to w.
func errorLogger(w io.Writer) *zap.Logger {
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	return zap.New(zapcore.NewCore(enc, zapcore.AddSync(w), zapcore.ErrorLevel))
}
