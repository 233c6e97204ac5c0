module github.com/listener-operator/listener-operator/test/images/pause

go 1.26.0
