// A client on this machine for the real-node cluster: GET http://<address>:<port>/ and the
// body, trimmed. Only addresses on the test bridge are ever passed here.
import { request } from "node:http"

export const httpGetBody = (host: string, port: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const req = request({ host, port, path: "/", timeout: 5000, agent: false }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (body += chunk))
      res.on("end", () => resolve(body.trim()))
    })
    req.on("timeout", () => req.destroy(new Error(`timeout connecting to ${host}:${port}`)))
    req.on("error", reject)
    req.end()
  })
