// Command psa-check evaluates every pod template in rendered Kubernetes manifests against the
// restricted Pod Security Standard, with the policy code the API server's admission plugin runs
// (k8s.io/pod-security-admission), so a chart that passes here is admitted by a namespace labelled
// pod-security.kubernetes.io/enforce=restricted.
//
//	psa-check FILE...   (multi-document YAML, e.g. the output of helm template)
//
// Prints one line per pod template (Pod, Job, CronJob, Deployment, StatefulSet, DaemonSet,
// ReplicaSet), with each violation; exits 1 on any violation or when no file holds a pod template
// (a check that saw nothing proves nothing), 2 on unreadable input.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/yaml"
)

// podTemplate is one object's pod: its metadata and spec, named by the object that holds it.
type podTemplate struct {
	name     string
	metadata *metav1.ObjectMeta
	spec     *corev1.PodSpec
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: psa-check FILE...")
		os.Exit(2)
	}
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "psa-check:", err)
		os.Exit(2)
	}
	level := api.LevelVersion{Level: api.LevelRestricted, Version: api.LatestVersion()}
	templates, violations := 0, 0
	for _, file := range os.Args[1:] {
		pods, err := read(file)
		if err != nil {
			fmt.Fprintf(os.Stderr, "psa-check: %s: %v\n", file, err)
			os.Exit(2)
		}
		for _, pod := range pods {
			templates++
			var problems []string
			for _, result := range evaluator.EvaluatePod(level, pod.metadata, pod.spec) {
				if !result.Allowed {
					problems = append(problems, result.ForbiddenReason+" ("+result.ForbiddenDetail+")")
				}
			}
			if len(problems) == 0 {
				fmt.Printf("psa-check: %s: %s: restricted: ok\n", file, pod.name)
				continue
			}
			violations += len(problems)
			for _, problem := range problems {
				fmt.Printf("psa-check: %s: %s: violates restricted: %s\n", file, pod.name, problem)
			}
		}
	}
	if templates == 0 {
		fmt.Println("psa-check: no pod template found")
		os.Exit(1)
	}
	if violations > 0 {
		fmt.Printf("psa-check: %d violation(s) of the restricted Pod Security Standard (%s)\n", violations, level.Version)
		os.Exit(1)
	}
}

// read decodes every document of a multi-document YAML file and returns its pod templates.
func read(file string) ([]podTemplate, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(f))
	var pods []podTemplate
	for {
		document, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return pods, nil
		}
		if err != nil {
			return nil, err
		}
		var head metav1.TypeMeta
		if err := yaml.Unmarshal(document, &head); err != nil {
			return nil, err
		}
		pod, err := template(head.Kind, document)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", head.Kind, err)
		}
		if pod != nil {
			pods = append(pods, *pod)
		}
	}
}

// template returns the pod of one object, or nil for a kind that holds none.
func template(kind string, document []byte) (*podTemplate, error) {
	// UnmarshalStrict: a field the API does not know is an error here too, not silently dropped
	// (a misspelled securityContext field would otherwise pass unnoticed).
	decode := func(into any) error { return yaml.UnmarshalStrict(document, into) }
	if find, ok := templates[kind]; ok {
		return find(decode, kind)
	}
	switch kind {
	case "Pod":
		var o corev1.Pod
		if err := decode(&o); err != nil {
			return nil, err
		}
		return &podTemplate{kind + "/" + o.Name, &o.ObjectMeta, &o.Spec}, nil
	case "":
		if strings.TrimSpace(string(document)) == "" {
			return nil, nil
		}
		return nil, errors.New("a document without a kind")
	}
	return nil, nil
}

// templates finds the pod template of every kind that holds one, but a Pod, which is its own.
var templates = map[string]func(decode func(any) error, kind string) (*podTemplate, error){
	"Job":         withTemplate(func(o *batchv1.Job) *corev1.PodTemplateSpec { return &o.Spec.Template }),
	"CronJob":     withTemplate(func(o *batchv1.CronJob) *corev1.PodTemplateSpec { return &o.Spec.JobTemplate.Spec.Template }),
	"Deployment":  withTemplate(func(o *appsv1.Deployment) *corev1.PodTemplateSpec { return &o.Spec.Template }),
	"StatefulSet": withTemplate(func(o *appsv1.StatefulSet) *corev1.PodTemplateSpec { return &o.Spec.Template }),
	"DaemonSet":   withTemplate(func(o *appsv1.DaemonSet) *corev1.PodTemplateSpec { return &o.Spec.Template }),
	"ReplicaSet":  withTemplate(func(o *appsv1.ReplicaSet) *corev1.PodTemplateSpec { return &o.Spec.Template }),
}

// withTemplate decodes a document into a T and returns the pod template that at finds in it,
// named by the object's kind and name.
func withTemplate[T any, P interface {
	*T
	GetName() string
}](at func(P) *corev1.PodTemplateSpec) func(decode func(any) error, kind string) (*podTemplate, error) {
	return func(decode func(any) error, kind string) (*podTemplate, error) {
		o := P(new(T))
		if err := decode(o); err != nil {
			return nil, err
		}
		t := at(o)
		return &podTemplate{kind + "/" + o.GetName(), &t.ObjectMeta, &t.Spec}, nil
	}
}
