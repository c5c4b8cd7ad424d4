import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** The sample's Kubernetes manifests, applied with `kubectl apply -f sample/k8s/`. */
export const SAMPLE_K8S = path.join(__dirname, '..', '..', 'sample', 'k8s');

/** The fields of a Kubernetes object the tests read; everything else is left untyped. */
export interface KubernetesObject {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels?: Record<string, string> };
  readonly spec?: Record<string, unknown>;
  readonly stringData?: Record<string, string>;
}

/** Every document of every `*.yaml` file of `directory` (not of its subdirectories, as kubectl). */
export function readManifests(directory = SAMPLE_K8S): KubernetesObject[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.yaml'))
    .flatMap((name) => readYamlDocuments(path.join(directory, name)));
}

/** The documents of one YAML file; a syntax error throws with the file's name. */
export function readYamlDocuments(file: string): KubernetesObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0].message}`);
    return document.toJS() as KubernetesObject;
  });
}

/** The one object of `kind` among `objects`. */
export function theOne(objects: readonly KubernetesObject[], kind: string): KubernetesObject {
  const found = objects.filter((object) => object.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0];
}
