import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { resolveOptions } from '../../src/application/options';
import { SAMPLE_K8S, readManifests, readYamlDocuments, theOne } from '../factories/manifests';
import { PROJECT_NAME, generateProject } from '../factories/new-project';
import { documentedProbe } from '../factories/probe-table';

// The Kubernetes manifests of the sample and of a project `framework new` writes, against sample/README.md's
// probe table and keel's shutdown: a drift between what the documentation promises and what
// `kubectl apply -f k8s/` creates fails here.

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Probe {
  httpGet: { path: string; port: number | string };
  initialDelaySeconds: number;
  periodSeconds: number;
  timeoutSeconds?: number;
}
interface Container {
  ports: { name?: string; containerPort: number }[];
  env: EnvVar[];
  livenessProbe: Probe;
  readinessProbe: Probe;
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds: number;
  securityContext?: Record<string, unknown>;
}
interface DeploymentSpec {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
}
interface ServiceSpec {
  type?: string;
  selector: Record<string, string>;
  ports: { port: number; targetPort: number | string }[];
}

interface DisruptionBudgetSpec {
  minAvailable?: number;
  maxUnavailable?: number;
  selector: { matchLabels: Record<string, string> };
}
interface AutoscalerSpec {
  scaleTargetRef: { apiVersion: string; kind: string; name: string };
  minReplicas: number;
  maxReplicas: number;
  metrics: {
    type: string;
    resource?: { name: string; target: { type: string; averageUtilization?: number } };
  }[];
}

const project = generateProject();
afterAll(() => project.remove());

const TARGETS = [
  { target: 'the sample', directory: SAMPLE_K8S, name: 'keel-sample' },
  { target: 'a new project', directory: path.join(project.dir, 'k8s'), name: PROJECT_NAME },
];

describe.each(TARGETS)('$target', ({ directory, name }) => {
  const manifests = readManifests(directory);
  const deployment = theOne(manifests, 'Deployment').spec as unknown as DeploymentSpec;
  const pod = deployment.template.spec;
  const service = theOne(manifests, 'Service').spec as unknown as ServiceSpec;

  function theContainer(): Container {
    expect(pod.containers).toHaveLength(1);
    return pod.containers[0];
  }

  function envVar(name: string): EnvVar | undefined {
    return theContainer().env.find((variable) => variable.name === name);
  }

  test.each([
    ['orchestrator liveness', 'livenessProbe', '/health'],
    ['orchestrator readiness', 'readinessProbe', '/health/ready'],
  ] as const)('the %s probe is the one sample/README.md documents', (row, field, expectedPath) => {
    const documented = documentedProbe(row);
    expect(documented.path).toBe(expectedPath);
    expect(documented.port).toBe(8080);
    const probe = theContainer()[field];
    expect(probe.httpGet).toEqual({ path: documented.path, port: documented.port });
    expect(probe.initialDelaySeconds).toBe(Number(documented.settings.initialDelaySeconds));
    expect(probe.periodSeconds).toBe(Number(documented.settings.periodSeconds));
  });

  test('sample/README.md documents the probe settings of the design: first check after 5 s, then every 10 s', () => {
    for (const row of ['orchestrator liveness', 'orchestrator readiness']) {
      expect(documentedProbe(row).settings).toEqual({ initialDelaySeconds: '5', periodSeconds: '10' });
    }
  });

  test('the readiness probe waits longer than keel takes to answer it (its 500 ms ping bound)', () => {
    expect((theContainer().readinessProbe.timeoutSeconds ?? 1) * 1000).toBeGreaterThan(500);
  });

  test('the container listens on port 8080, named http, the port the probes ask, and serves its metrics on 9464', () => {
    expect(theContainer().ports).toEqual([
      { name: 'http', containerPort: 8080 },
      { name: 'metrics', containerPort: 9464 },
    ]);
  });

  test('the pod carries the annotations Prometheus’s pod discovery reads, naming the metrics port and path', () => {
    const annotations = (deployment.template.metadata as { annotations?: Record<string, string> })
      .annotations;
    expect(annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9464',
      'prometheus.io/path': '/metrics',
    });
    const metricsPort = theContainer().ports.find((port) => port.name === 'metrics');
    expect(String(metricsPort?.containerPort)).toBe(annotations?.['prometheus.io/port']);
    // The application's own default: the manifest sets no METRICS_PORT.
    expect(envVar('METRICS_PORT')).toBeUndefined();
  });

  test('DATABASE_URL comes from the Secret <name>-database, never from the manifest itself', () => {
    expect(envVar('DATABASE_URL')).toEqual({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: `${name}-database`, key: 'url' } },
    });
  });

  test('the example Secret has the name and key the Deployment reads, and a placeholder for the URL', () => {
    const [secret] = readYamlDocuments(path.join(directory, 'example', 'secret.yaml'));
    expect(secret.kind).toBe('Secret');
    expect(secret.metadata.name).toBe(`${name}-database`);
    expect(Object.keys(secret.stringData ?? {})).toEqual(['url']);
  });

  test('the grace period outlasts the whole shutdown: the delay, then keel’s drain timeout', () => {
    const shutdownDelayMs = Number(envVar('SHUTDOWN_DELAY_MS')?.value);
    expect(shutdownDelayMs).toBe(5000);
    const drainSeconds = (shutdownDelayMs + resolveOptions({}).shutdownTimeoutMs) / 1000;
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drainSeconds);
  });

  test('the container asks for cpu and memory and is limited in both', () => {
    const { requests, limits } = theContainer().resources;
    expect(Object.keys(requests ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(limits ?? {}).sort()).toEqual(['cpu', 'memory']);
  });

  test('the pod runs as a non-root user on a read-only root filesystem, without privilege escalation', () => {
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
    expect(pod.securityContext?.runAsUser).not.toBe(0);
    expect(theContainer().securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
  });

  test('two replicas, selected by the labels their pods carry', () => {
    expect(deployment.replicas).toBe(2);
    expect(deployment.template.metadata.labels).toMatchObject(deployment.selector.matchLabels);
  });

  test('the Service sends port 80 to the container port named http, on the Deployment’s pods', () => {
    expect(service.type ?? 'ClusterIP').toBe('ClusterIP');
    expect(service.ports).toHaveLength(1);
    expect(service.ports[0].port).toBe(80);
    const target = theContainer().ports.find((port) => port.name === service.ports[0].targetPort);
    expect(target?.containerPort).toBe(8080);
    expect(deployment.template.metadata.labels).toMatchObject(service.selector);
  });

  test('a PodDisruptionBudget keeps one of the Deployment’s pods serving while a node drains', () => {
    const budget = theOne(manifests, 'PodDisruptionBudget').spec as unknown as DisruptionBudgetSpec;
    expect(budget.minAvailable).toBe(1);
    expect(budget.maxUnavailable).toBeUndefined();
    expect(deployment.template.metadata.labels).toMatchObject(budget.selector.matchLabels);
    // A budget as large as the replicas would block every drain.
    expect(deployment.replicas).toBeGreaterThan(budget.minAvailable ?? 0);
  });

  test('a HorizontalPodAutoscaler scales the Deployment on CPU, never below its replicas', () => {
    const autoscaler = theOne(manifests, 'HorizontalPodAutoscaler').spec as unknown as AutoscalerSpec;
    expect(autoscaler.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
    expect(theOne(manifests, 'Deployment').metadata.name).toBe(name);
    expect(autoscaler.minReplicas).toBe(deployment.replicas);
    expect(autoscaler.maxReplicas).toBeGreaterThan(autoscaler.minReplicas);
    expect(autoscaler.metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
      },
    ]);
    // Utilization is measured against the request: without one the autoscaler cannot act.
    expect(theContainer().resources.requests?.cpu).toBeDefined();
  });
});

describe('the sample', () => {
  const container = (theOne(readManifests(SAMPLE_K8S), 'Deployment').spec as unknown as DeploymentSpec)
    .template.spec.containers[0] as Container;

  test('its session key and its operator come from the Secret keel-sample-auth, whose example has every key they read', () => {
    const fromAuthSecret = ['SESSION_SECRET', 'ADMIN_EMAIL', 'ADMIN_PASSWORD'].map(
      (setting) => container.env.find((variable) => variable.name === setting)?.valueFrom?.secretKeyRef,
    );
    for (const ref of fromAuthSecret) expect(ref?.name).toBe('keel-sample-auth');
    // In production (the image's NODE_ENV) the sample refuses to start without a session key.
    expect(fromAuthSecret[0]).not.toHaveProperty('optional');
    const [secret] = readYamlDocuments(path.join(SAMPLE_K8S, 'example', 'auth-secret.yaml'));
    expect(secret.metadata.name).toBe('keel-sample-auth');
    expect(Object.keys(secret.stringData ?? {}).sort()).toEqual(fromAuthSecret.map((ref) => ref?.key).sort());
  });
});
